/**
 * Anthropic Messages. Blocks carry their own `index`; tool input streams as
 * JSON fragments; thinking blocks end with a signature that must come back
 * unchanged on later requests. The system prompt and the last user turn are
 * marked for prompt caching, so each turn reuses the previous prefix.
 */
import type { ImageContent, TextContent } from "../core/messages.ts";
import { type UsageUpdate, prepareMessages, sameModel, toolResultText, userBlocks } from "./convert.ts";
import { ProviderFailure, streamFailure } from "./errors.ts";
import { type HttpRequest, joinUrl } from "./http.ts";
import { runProvider } from "./run.ts";
import { parseSse } from "./sse.ts";
import { clampThinking, thinkingBudget } from "./thinking.ts";
import type { Provider, ProviderEvent, ProviderRequest } from "./types.ts";

export const anthropic: Provider = {
  api: "anthropic",
  stream: (request, signal) => runProvider(() => buildAnthropicRequest(request), decodeAnthropic, request, signal),
};

type Block = Record<string, unknown>;
interface WireTurn {
  role: "user" | "assistant";
  content: Block[];
}

const EPHEMERAL = { type: "ephemeral" };

export function buildAnthropicRequest(request: ProviderRequest): HttpRequest {
  const messages: WireTurn[] = [];
  for (const message of prepareMessages(request.messages, request.model)) {
    if (message.role === "user") {
      const content = anthropicContent(userBlocks(message));
      if (content.length > 0) messages.push({ role: "user", content });
    } else if (message.role === "assistant") {
      const same = sameModel(message, request.model);
      const content: Block[] = [];
      for (const block of message.content) {
        if (block.type === "thinking") {
          if (!same || !block.thinkingSignature) continue;
          content.push(
            block.redacted ? { type: "redacted_thinking", data: block.thinkingSignature } : { type: "thinking", thinking: block.thinking, signature: block.thinkingSignature },
          );
        } else if (block.type === "text") {
          if (block.text.length > 0) content.push({ type: "text", text: block.text });
        } else {
          content.push({ type: "tool_use", id: toolUseId(block.id), name: block.name, input: block.arguments });
        }
      }
      if (content.length > 0) messages.push({ role: "assistant", content });
    } else {
      const result: Block = {
        type: "tool_result",
        tool_use_id: toolUseId(message.toolCallId),
        content: anthropicContent([{ type: "text", text: toolResultText(message) }, ...message.content.filter((c) => c.type === "image")]),
        is_error: message.isError,
      };
      // all results of one assistant turn go back in a single user turn
      const last = messages.at(-1);
      if (last?.role === "user" && last.content.at(-1)?.type === "tool_result") last.content.push(result);
      else messages.push({ role: "user", content: [result] });
    }
  }
  const lastUser = messages.findLast((m) => m.role === "user");
  const lastBlock = lastUser?.content.at(-1);
  // two breakpoints: the system prompt (with the tools before it) and the newest user turn
  const cache = request.cacheRetention === "1h" ? { ...EPHEMERAL, ttl: "1h" } : EPHEMERAL;
  if (lastBlock) lastBlock.cache_control = cache;

  const body: Record<string, unknown> = {
    model: request.model.id,
    max_tokens: request.model.maxTokens,
    messages,
    stream: true,
  };
  if (request.systemPrompt) body.system = [{ type: "text", text: request.systemPrompt, cache_control: cache }];
  if (request.tools.length > 0) {
    body.tools = request.tools.map((t) => ({ name: t.name, description: t.description, input_schema: t.parameters }));
  }
  const headers: Record<string, string> = { "anthropic-version": "2023-06-01" };
  if (request.auth.apiKey) headers["x-api-key"] = request.auth.apiKey;
  const budget = thinkingBudget(clampThinking(request.thinkingLevel, request.model), request.model.maxTokens);
  if (budget !== undefined) {
    body.thinking = { type: "enabled", budget_tokens: budget };
    // lets the model think between tool calls, not only before the first
    headers["anthropic-beta"] = "interleaved-thinking-2025-05-14";
  }
  return { url: joinUrl(request.model.baseUrl, "messages"), headers: { ...headers, ...request.auth.headers }, body };
}

function anthropicContent(content: (TextContent | ImageContent)[]): Block[] {
  return content.flatMap((c): Block[] => {
    if (c.type === "image") return [{ type: "image", source: { type: "base64", media_type: c.mimeType, data: c.data } }];
    return c.text.length > 0 ? [{ type: "text", text: c.text }] : [];
  });
}

/** Anthropic accepts `[a-zA-Z0-9_-]{1,64}`; ids from other providers are made to fit. */
function toolUseId(id: string): string {
  return id.replace(/[^a-zA-Z0-9_-]/g, "_").slice(0, 64);
}

interface AnthropicUsage {
  input_tokens?: number;
  output_tokens?: number;
  cache_read_input_tokens?: number;
  cache_creation_input_tokens?: number;
}

interface AnthropicEvent {
  type: string;
  index?: number;
  message?: { usage?: AnthropicUsage };
  content_block?: { type: string; id?: string; name?: string; data?: string; text?: string; thinking?: string };
  delta?: { type?: string; text?: string; partial_json?: string; thinking?: string; signature?: string; stop_reason?: string };
  usage?: AnthropicUsage;
  error?: { type?: string; message?: string };
}

const STOP_REASONS: Record<string, "stop" | "length" | "toolUse"> = {
  end_turn: "stop",
  stop_sequence: "stop",
  pause_turn: "stop",
  tool_use: "toolUse",
  max_tokens: "length",
  model_context_window_exceeded: "length",
};

export async function* decodeAnthropic(body: ReadableStream<Uint8Array>): AsyncGenerator<ProviderEvent> {
  let stopReason: string | undefined;
  // tool blocks whose input never streamed: a tool without parameters
  const argless = new Set<number>();
  for await (const sse of parseSse(body)) {
    const event = JSON.parse(sse.data) as AnthropicEvent;
    const index = event.index ?? 0;
    switch (event.type) {
      case "message_start":
        if (event.message?.usage) yield { type: "usage", usage: anthropicUsage(event.message.usage) };
        break;
      case "content_block_start": {
        const block = event.content_block;
        if (block?.type === "tool_use") {
          argless.add(index);
          yield { type: "toolcall_start", index, id: block.id ?? `toolu_${index}`, name: block.name ?? "" };
        } else if (block?.type === "redacted_thinking") {
          yield { type: "thinking_signature", index, signature: block.data ?? "", redacted: true };
        } else if (block?.type === "text" && block.text) {
          yield { type: "text_delta", index, delta: block.text };
        } else if (block?.type === "thinking" && block.thinking) {
          yield { type: "thinking_delta", index, delta: block.thinking };
        }
        break;
      }
      case "content_block_delta": {
        const delta = event.delta ?? {};
        if (delta.type === "text_delta" && delta.text) yield { type: "text_delta", index, delta: delta.text };
        else if (delta.type === "thinking_delta" && delta.thinking) yield { type: "thinking_delta", index, delta: delta.thinking };
        else if (delta.type === "signature_delta" && delta.signature) {
          yield { type: "thinking_signature", index, signature: delta.signature };
        } else if (delta.type === "input_json_delta" && delta.partial_json) {
          argless.delete(index);
          yield { type: "toolcall_delta", index, delta: delta.partial_json };
        }
        break;
      }
      case "content_block_stop":
        if (argless.delete(index)) yield { type: "toolcall_args", index, arguments: {} };
        break;
      case "message_delta":
        if (event.delta?.stop_reason) stopReason = event.delta.stop_reason;
        if (event.usage) yield { type: "usage", usage: anthropicUsage(event.usage) };
        break;
      case "message_stop":
        if (stopReason === "refusal") {
          throw new ProviderFailure({ message: "the model declined to answer (stop_reason: refusal)", retryable: false, kind: "refusal" });
        }
        yield { type: "stop", reason: STOP_REASONS[stopReason ?? "end_turn"] ?? "stop" };
        return;
      case "error":
        throw streamFailure(event);
    }
  }
}

/** Only the fields present: `message_delta` usage is cumulative and may omit the input side. */
function anthropicUsage(usage: AnthropicUsage): UsageUpdate {
  const out: UsageUpdate = {};
  if (typeof usage.input_tokens === "number") out.input = usage.input_tokens;
  if (typeof usage.output_tokens === "number") out.output = usage.output_tokens;
  if (typeof usage.cache_read_input_tokens === "number") out.cacheRead = usage.cache_read_input_tokens;
  if (typeof usage.cache_creation_input_tokens === "number") out.cacheWrite = usage.cache_creation_input_tokens;
  return out;
}
