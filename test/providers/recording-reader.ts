/**
 * What a recorded response says, read the simple way: whole events parsed
 * after the fact, the final items where the API repeats them, no streaming
 * state. The replay test compares nova's assistant message to this, so the
 * expectation comes from the recording itself, not from nova's decoders.
 */

export type WireFormat = "openai-chat" | "openai-responses" | "anthropic" | "google" | "ollama";

export interface ExpectedCall {
  id?: string;
  name: string;
  args: Record<string, unknown>;
  /** what must come back with the call on the next request (Gemini's thoughtSignature) */
  signature?: string;
}

export interface Expected {
  model: string;
  text: string;
  thinking: string;
  calls: ExpectedCall[];
  stop: "stop" | "length" | "toolUse" | "error";
  error?: string;
  /** the provider's own counts; `total` is what it says it billed */
  usage?: { input: number; cacheRead: number; cacheWrite: number; total: number };
  /** reasoning items (Responses) or thinking blocks (Anthropic) that must be sent back verbatim */
  replay: Record<string, unknown>[];
  /** Gemini: the thoughtSignature that came on a text part, to go back on that part */
  textSignature?: string;
}

/** `data:` payloads of an SSE body, parsed; `[DONE]` dropped. */
export function ssePayloads(body: string): any[] {
  return body
    .split(/\r?\n\r?\n/)
    .map((event) =>
      event
        .split(/\r?\n/)
        .filter((line) => line.startsWith("data:"))
        .map((line) => line.slice(5).trimStart())
        .join("\n"),
    )
    .filter((data) => data.length > 0 && data !== "[DONE]")
    .map((data) => JSON.parse(data));
}

export function expectedFrom(format: WireFormat, body: string): Expected {
  switch (format) {
    case "openai-chat":
      return chat(ssePayloads(body));
    case "openai-responses":
      return responses(ssePayloads(body));
    case "anthropic":
      return anthropic(ssePayloads(body));
    case "google":
      return google(ssePayloads(body));
    case "ollama":
      return ollama(
        body
          .split("\n")
          .filter((l) => l.trim())
          .map((l) => JSON.parse(l)),
      );
  }
}

/** An HTTP error response: the message is the provider's own text after the status. */
export function expectedHttpError(status: number, body: any): Expected {
  const message = typeof body.error === "string" ? body.error : body.error.message;
  return { model: "", text: "", thinking: "", calls: [], stop: "error", error: `HTTP ${status}: ${message}`, replay: [] };
}

function base(model: string): Expected {
  return { model, text: "", thinking: "", calls: [], stop: "stop", replay: [] };
}

function parseArgs(text: string): Record<string, unknown> {
  return text.trim() === "" ? {} : JSON.parse(text);
}

function chat(chunks: any[]): Expected {
  const out = base(chunks[0].model);
  const calls = new Map<number, { id?: string; name: string; args: string }>();
  let finish = "";
  for (const chunk of chunks) {
    if (chunk.usage) {
      const u = chunk.usage;
      const cached = u.prompt_tokens_details?.cached_tokens ?? 0;
      const written = u.prompt_tokens_details?.cache_write_tokens ?? 0;
      out.usage = { input: u.prompt_tokens - cached - written, cacheRead: cached, cacheWrite: written, total: u.total_tokens };
    }
    const choice = chunk.choices?.[0];
    if (!choice) continue;
    out.text += choice.delta?.content ?? "";
    out.thinking += choice.delta?.reasoning_content ?? choice.delta?.reasoning ?? "";
    for (const call of choice.delta?.tool_calls ?? []) {
      const known = calls.get(call.index);
      if (!known) calls.set(call.index, { id: call.id, name: call.function?.name ?? "", args: call.function?.arguments ?? "" });
      else known.args += call.function?.arguments ?? "";
    }
    finish = choice.finish_reason ?? finish;
  }
  out.calls = [...calls.values()].map((c) => ({ id: c.id, name: c.name, args: parseArgs(c.args) }));
  out.stop = finish === "length" ? "length" : out.calls.length > 0 ? "toolUse" : "stop";
  return out;
}

function responses(events: any[]): Expected {
  const out = base(events[0].response.model);
  for (const event of events) {
    if (event.type === "response.output_item.done") {
      const item = event.item;
      if (item.type === "message") out.text += item.content.map((c: any) => c.text ?? c.refusal ?? "").join("");
      if (item.type === "reasoning") {
        const summary = (item.summary ?? []).map((s: any) => s.text);
        const content = (item.content ?? []).map((c: any) => c.text);
        out.thinking += [...summary, ...content].join("\n\n");
        out.replay.push(item);
      }
      if (item.type === "function_call") out.calls.push({ id: `${item.call_id}|${item.id}`, name: item.name, args: parseArgs(item.arguments) });
    }
    if (event.type === "error" && out.error === undefined) out.error = event.error?.message ?? event.message;
    if (event.type === "response.failed" && out.error === undefined) out.error = event.response.error.message;
    if (event.type === "response.completed" || event.type === "response.incomplete") {
      const u = event.response.usage;
      const cached = u.input_tokens_details?.cached_tokens ?? 0;
      // Bedrock's Responses endpoint also says how many of the input tokens it wrote to its cache
      const written = u.input_tokens_details?.cache_write_tokens ?? 0;
      out.usage = { input: u.input_tokens - cached - written, cacheRead: cached, cacheWrite: written, total: u.total_tokens };
      out.stop = event.response.status === "incomplete" ? "length" : out.calls.length > 0 ? "toolUse" : "stop";
    }
  }
  if (out.error !== undefined) out.stop = "error";
  return out;
}

function anthropic(events: any[]): Expected {
  const out = base(events.find((e) => e.type === "message_start")?.message.model ?? "");
  const blocks = new Map<number, any>();
  const usage: Record<string, number> = {};
  let stop = "";
  for (const event of events) {
    if (event.type === "message_start") Object.assign(usage, event.message.usage);
    if (event.type === "message_delta") {
      Object.assign(usage, event.usage);
      stop = event.delta.stop_reason ?? stop;
    }
    if (event.type === "content_block_start") blocks.set(event.index, { ...event.content_block, json: "" });
    if (event.type === "content_block_delta") {
      const block = blocks.get(event.index);
      const d = event.delta;
      if (d.type === "text_delta") block.text = (block.text ?? "") + d.text;
      if (d.type === "thinking_delta") block.thinking = (block.thinking ?? "") + d.thinking;
      if (d.type === "signature_delta") block.signature = (block.signature ?? "") + d.signature;
      if (d.type === "input_json_delta") block.json += d.partial_json ?? "";
    }
    if (event.type === "error") out.error = event.error.message;
  }
  for (const block of [...blocks.entries()].sort(([a], [b]) => a - b).map(([, b]) => b)) {
    if (block.type === "text") out.text += block.text ?? "";
    if (block.type === "thinking") {
      out.thinking += block.thinking;
      out.replay.push({ type: "thinking", thinking: block.thinking, signature: block.signature });
    }
    if (block.type === "tool_use") out.calls.push({ id: block.id, name: block.name, args: parseArgs(block.json) });
  }
  if (usage.output_tokens !== undefined) {
    const cacheRead = usage.cache_read_input_tokens ?? 0;
    const cacheWrite = usage.cache_creation_input_tokens ?? 0;
    out.usage = { input: usage.input_tokens!, cacheRead, cacheWrite, total: usage.input_tokens! + usage.output_tokens + cacheRead + cacheWrite };
  }
  out.stop = out.error !== undefined ? "error" : stop === "max_tokens" ? "length" : stop === "tool_use" ? "toolUse" : "stop";
  return out;
}

function google(chunks: any[]): Expected {
  const out = base(chunks[0].modelVersion);
  for (const chunk of chunks) {
    for (const part of chunk.candidates?.[0]?.content?.parts ?? []) {
      if (part.functionCall?.name) out.calls.push({ name: part.functionCall.name, args: part.functionCall.args ?? {}, signature: part.thoughtSignature });
      else if (part.functionCall) {
        // streamed arguments: `$.key` pieces for the call still open; strings continue
        const args = out.calls.at(-1)!.args;
        for (const piece of part.functionCall.partialArgs ?? []) {
          const key = piece.jsonPath.slice(2);
          args[key] = ((args[key] as string | undefined) ?? "") + piece.stringValue;
        }
      } else if (part.thought) out.thinking += part.text ?? "";
      else {
        out.text += part.text ?? "";
        if (part.thoughtSignature) out.textSignature = part.thoughtSignature;
      }
    }
    const u = chunk.usageMetadata;
    if (u?.totalTokenCount !== undefined) {
      const cached = u.cachedContentTokenCount ?? 0;
      out.usage = { input: u.promptTokenCount - cached, cacheRead: cached, cacheWrite: 0, total: u.totalTokenCount };
    }
  }
  const finish = chunks.at(-1).candidates?.[0]?.finishReason;
  out.stop = finish === "MAX_TOKENS" ? "length" : out.calls.length > 0 ? "toolUse" : "stop";
  return out;
}

function ollama(lines: any[]): Expected {
  const out = base(lines[0].model);
  for (const line of lines) {
    out.text += line.message?.content ?? "";
    out.thinking += line.message?.thinking ?? "";
    for (const call of line.message?.tool_calls ?? []) out.calls.push({ name: call.function.name, args: call.function.arguments });
    if (line.done) out.usage = { input: line.prompt_eval_count, cacheRead: 0, cacheWrite: 0, total: line.prompt_eval_count + line.eval_count };
    if (line.error) out.error = line.error;
  }
  out.stop = out.error !== undefined ? "error" : lines.at(-1).done_reason === "length" ? "length" : out.calls.length > 0 ? "toolUse" : "stop";
  return out;
}
