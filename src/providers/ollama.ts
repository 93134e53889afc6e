/**
 * Ollama's native `/api/chat`, streamed as NDJSON. Tool calls arrive whole
 * with arguments as an object and usually without ids, so ids are made here.
 * `num_ctx` is set from the model's context window because Ollama otherwise
 * silently truncates the prompt to its small default.
 */
import { BlockIndexer } from "./blocks.ts";
import { type UsageUpdate, images, newToolCallId, prepareMessages, toolResultText, userBlocks } from "./convert.ts";
import { streamFailure } from "./errors.ts";
import { type HttpRequest, bearerHeaders, joinUrl } from "./http.ts";
import { parseNdjson } from "./ndjson.ts";
import { runProvider } from "./run.ts";
import { clampThinking } from "./thinking.ts";
import type { Provider, ProviderEvent, ProviderRequest } from "./types.ts";
import { blockText } from "../core/text.ts";

export const ollama: Provider = {
  api: "ollama",
  stream: (request, signal) => runProvider(() => buildOllamaRequest(request), decodeOllama, request, signal),
};

export function buildOllamaRequest(request: ProviderRequest): HttpRequest {
  const messages: unknown[] = [];
  if (request.systemPrompt) messages.push({ role: "system", content: request.systemPrompt });
  for (const message of prepareMessages(request.messages, request.model)) {
    if (message.role === "user") {
      const content = userBlocks(message);
      messages.push(withImages({ role: "user", content: blockText(content, "\n") }, images(content)));
    } else if (message.role === "assistant") {
      const text = blockText(message.content);
      const calls = message.content.flatMap((c) => (c.type === "toolCall" ? [{ function: { name: c.name, arguments: c.arguments } }] : []));
      messages.push({ role: "assistant", content: text, ...(calls.length > 0 ? { tool_calls: calls } : {}) });
    } else {
      messages.push(withImages({ role: "tool", tool_name: message.toolName, content: toolResultText(message) }, images(message.content)));
    }
  }
  const body: Record<string, unknown> = {
    model: request.model.id,
    messages,
    stream: true,
    options: { num_ctx: request.model.contextWindow },
  };
  // a model Ollama says cannot call tools answers 400 to any request that offers some
  if (request.tools.length > 0 && request.model.tools !== false) {
    body.tools = request.tools.map((t) => ({
      type: "function",
      function: { name: t.name, description: t.description, parameters: t.parameters },
    }));
  }
  if (request.model.reasoning) body.think = clampThinking(request.thinkingLevel, request.model) !== "off";
  return { url: joinUrl(request.model.baseUrl, "api/chat"), headers: bearerHeaders(request.auth), body };
}

function withImages(message: Record<string, unknown>, list: { data: string }[]): Record<string, unknown> {
  return list.length > 0 ? { ...message, images: list.map((i) => i.data) } : message;
}

interface OllamaLine {
  message?: {
    content?: string;
    thinking?: string;
    tool_calls?: { id?: string; function?: { name?: string; arguments?: Record<string, unknown> | string } }[];
  };
  done?: boolean;
  done_reason?: string;
  prompt_eval_count?: number;
  eval_count?: number;
  error?: unknown;
}

export async function* decodeOllama(body: ReadableStream<Uint8Array>): AsyncGenerator<ProviderEvent> {
  const blocks = new BlockIndexer();
  let toolUse = false;
  for await (const value of parseNdjson(body)) {
    const line = value as OllamaLine;
    if (line.error !== undefined) throw streamFailure(line);
    const message = line.message ?? {};
    if (message.thinking) yield { type: "thinking_delta", index: blocks.block("thinking"), delta: message.thinking };
    if (message.content) yield { type: "text_delta", index: blocks.block("text"), delta: message.content };
    for (const call of message.tool_calls ?? []) {
      toolUse = true;
      const index = blocks.standalone();
      yield { type: "toolcall_start", index, id: call.id || newToolCallId(), name: call.function?.name ?? "" };
      const args = call.function?.arguments ?? {};
      // some model templates return the arguments as a JSON string; the agent parses those like fragments
      if (typeof args === "string") yield { type: "toolcall_delta", index, delta: args };
      else yield { type: "toolcall_args", index, arguments: args };
    }
    if (line.done) {
      yield { type: "usage", usage: ollamaUsage(line) };
      yield { type: "stop", reason: line.done_reason === "length" ? "length" : toolUse ? "toolUse" : "stop" };
      return;
    }
  }
}

function ollamaUsage(line: OllamaLine): UsageUpdate {
  return { input: line.prompt_eval_count ?? 0, output: line.eval_count ?? 0 };
}
