/**
 * OpenAI Chat Completions (and the many servers that copy it: llama.cpp,
 * vLLM, OpenRouter, Ollama's /v1). Tool calls stream as fragments keyed by
 * `index`; usage arrives in a last chunk with no choices before `[DONE]`.
 */
import type { AssistantMessage, ImageContent, TextContent, ThinkingContent } from "../core/messages.ts";
import { BlockIndexer } from "./blocks.ts";
import { type UsageUpdate, billedOutput, dataUrl, images, newToolCallId, prepareMessages, sameModel, toolResultText, userBlocks } from "./convert.ts";
import { ProviderFailure, streamFailure } from "./errors.ts";
import { type HttpRequest, bearerHeaders, joinUrl } from "./http.ts";
import { runProvider } from "./run.ts";
import { parseSseBatches } from "./sse.ts";
import { clampThinking, reasoningEffort } from "./thinking.ts";
import type { Model, Provider, ProviderEvent, ProviderRequest } from "./types.ts";
import { blockText } from "../core/text.ts";

export const openaiChat: Provider = {
  api: "openai-chat",
  stream: (request, signal) => runProvider(() => buildChatRequest(request), decodeChat, request, signal),
};

type ChatPart = { type: "text"; text: string } | { type: "image_url"; image_url: { url: string } };

export function buildChatRequest(request: ProviderRequest): HttpRequest {
  const messages: unknown[] = [];
  if (request.systemPrompt) messages.push({ role: "system", content: request.systemPrompt });
  let toolImages: ImageContent[] = [];
  const replay = replaysReasoning(request.model);
  for (const message of prepareMessages(request.messages, request.model)) {
    // tool messages must directly follow their assistant turn, so images from
    // tool results wait until the run of tool messages ends
    if (message.role !== "toolResult" && toolImages.length > 0) {
      messages.push(toolImagesMessage(toolImages));
      toolImages = [];
    }
    if (message.role === "user") {
      messages.push({ role: "user", content: chatContent(userBlocks(message)) });
    } else if (message.role === "assistant") {
      const text = blockText(message.content);
      const calls = message.content.flatMap((c) =>
        c.type === "toolCall" ? [{ id: chatToolCallId(c.id), type: "function", function: { name: c.name, arguments: JSON.stringify(c.arguments) } }] : [],
      );
      if (text.length === 0 && calls.length === 0) continue;
      const wire: Record<string, unknown> = { role: "assistant", content: text.length > 0 ? text : null };
      if (calls.length > 0) {
        wire.tool_calls = calls;
        if (replay) Object.assign(wire, reasoningBack(message, request.model));
      }
      messages.push(wire);
    } else {
      messages.push({ role: "tool", tool_call_id: chatToolCallId(message.toolCallId), content: toolResultText(message) });
      toolImages.push(...images(message.content));
    }
  }
  if (toolImages.length > 0) messages.push(toolImagesMessage(toolImages));

  const body: Record<string, unknown> = {
    model: request.model.id,
    messages,
    stream: true,
    stream_options: { include_usage: true },
  };
  if (request.tools.length > 0) {
    body.tools = request.tools.map((t) => ({
      type: "function",
      function: { name: t.name, description: t.description, parameters: t.parameters },
    }));
  }
  const effort = reasoningEffort(clampThinking(request.thinkingLevel, request.model));
  if (effort) body.reasoning_effort = effort;
  if (request.outputSchema) body.response_format = { type: "json_schema", json_schema: { ...request.outputSchema, strict: false } };
  if (request.cacheKey) body.prompt_cache_key = request.cacheKey;
  return { url: joinUrl(request.model.baseUrl, "chat/completions"), headers: bearerHeaders(request.auth), body };
}

/**
 * Whether assistant turns with tool calls carry their reasoning back. DeepSeek's
 * thinking mode answers a tool result without it with HTTP 400 ("Missing
 * reasoning_content field"), while other servers may reject the unknown
 * field, so it is on by default only for DeepSeek's reasoning models and a
 * model's `replayReasoning` setting decides everywhere.
 */
export function replaysReasoning(model: Model): boolean {
  if (model.replayReasoning !== undefined) return model.replayReasoning;
  return /deepseek/i.test(model.id) && (model.reasoning || /reasoner|think/i.test(model.id));
}

/** The turn's reasoning under the field it streamed in (`reasoning_content` unless it came as `reasoning`); empty for another model's turn. */
function reasoningBack(message: AssistantMessage, model: Model): Record<string, string> {
  const thinking = sameModel(message, model) ? message.content.filter((c): c is ThinkingContent => c.type === "thinking") : [];
  const field = thinking.find((c) => c.thinkingSignature === "reasoning")?.thinkingSignature ?? "reasoning_content";
  return { [field]: thinking.map((c) => c.thinking).join("") };
}

/** A plain string when there are no images: some compatible servers accept nothing else. */
function chatContent(content: (TextContent | ImageContent)[]): string | ChatPart[] {
  if (images(content).length === 0) return blockText(content, "\n");
  return content.map((c) => (c.type === "text" ? { type: "text", text: c.text } : { type: "image_url", image_url: { url: dataUrl(c) } }));
}

function toolImagesMessage(list: ImageContent[]): unknown {
  return { role: "user", content: [{ type: "text", text: "Attached image(s) from tool result:" }, ...chatContent(list)] };
}

/** Responses-API ids are `call_id|item_id`; Chat Completions wants the call id alone. */
function chatToolCallId(id: string): string {
  return id.split("|")[0]!;
}

interface ChatChunk {
  choices?: {
    delta?: {
      content?: string | null;
      reasoning_content?: string | null;
      reasoning?: string | null;
      tool_calls?: { index?: number; id?: string; function?: { name?: string; arguments?: string } }[];
    };
    finish_reason?: string | null;
  }[];
  usage?: {
    prompt_tokens?: number;
    completion_tokens?: number;
    total_tokens?: number;
    prompt_tokens_details?: { cached_tokens?: number; cache_write_tokens?: number };
    /** DeepSeek's name for cached prompt tokens */
    prompt_cache_hit_tokens?: number;
  } | null;
  error?: unknown;
}

export async function* decodeChat(body: ReadableStream<Uint8Array>): AsyncGenerator<ProviderEvent[]> {
  const blocks = new BlockIndexer();
  const toolIndex = new Map<number, number>();
  // calls whose arguments never came: a tool without parameters
  const argless = new Set<number>();
  const reasoningField = new Map<number, string>();
  let finish: string | undefined;
  // the events of one read go out together; a failure first hands on what came before it
  let out: ProviderEvent[] = [];
  try {
    reading: for await (const batch of parseSseBatches(body)) {
      for (const sse of batch) {
        if (sse.data === "[DONE]") {
          // some servers (OpenRouter's kimi-k2) end a complete answer with [DONE] and no finish_reason
          finish ??= "";
          break reading;
        }
        const chunk = JSON.parse(sse.data) as ChatChunk;
        if (chunk.error !== undefined) throw streamFailure(chunk);
        if (chunk.usage) out.push({ type: "usage", usage: chatUsage(chunk.usage) });
        const choice = chunk.choices?.[0];
        if (!choice) continue;
        const delta = choice.delta ?? {};
        const field = delta.reasoning_content ? "reasoning_content" : delta.reasoning ? "reasoning" : undefined;
        if (field) {
          const index = blocks.block("thinking");
          out.push({ type: "thinking_delta", index, delta: delta[field] as string });
          // the field's name is the block's signature: the same name carries the text back
          if (field !== reasoningField.get(index)) {
            reasoningField.set(index, field);
            out.push({ type: "thinking_signature", index, signature: field });
          }
        }
        if (delta.content) out.push({ type: "text_delta", index: blocks.block("text"), delta: delta.content });
        for (const call of delta.tool_calls ?? []) {
          const key = call.index ?? toolIndex.size;
          let index = toolIndex.get(key);
          if (index === undefined) {
            index = blocks.standalone();
            toolIndex.set(key, index);
            argless.add(index);
            out.push({ type: "toolcall_start", index, id: call.id || newToolCallId(), name: call.function?.name ?? "" });
          }
          if (call.function?.arguments) {
            argless.delete(index);
            out.push({ type: "toolcall_delta", index, delta: call.function.arguments });
          }
        }
        if (choice.finish_reason) finish = choice.finish_reason;
      }
      if (out.length > 0) yield out;
      out = [];
    }
  } catch (error) {
    if (out.length > 0) yield out;
    throw error;
  }
  if (finish === undefined) {
    if (out.length > 0) yield out;
    return;
  }
  if (finish === "content_filter") {
    if (out.length > 0) yield out;
    throw new ProviderFailure({ message: "the provider stopped the response: content_filter", retryable: false, kind: "refusal" });
  }
  for (const index of argless) out.push({ type: "toolcall_args", index, arguments: {} });
  const toolUse = toolIndex.size > 0 || finish === "tool_calls" || finish === "function_call";
  out.push({ type: "stop", reason: finish === "length" ? "length" : toolUse ? "toolUse" : "stop" });
  yield out;
}

function chatUsage(usage: NonNullable<ChatChunk["usage"]>): UsageUpdate {
  const prompt = usage.prompt_tokens ?? 0;
  const cacheRead = usage.prompt_tokens_details?.cached_tokens ?? usage.prompt_cache_hit_tokens ?? 0;
  const cacheWrite = usage.prompt_tokens_details?.cache_write_tokens ?? 0;
  return {
    input: prompt - cacheRead - cacheWrite,
    output: billedOutput(usage.completion_tokens ?? 0, prompt, usage.total_tokens),
    cacheRead,
    cacheWrite,
  };
}
