/**
 * OpenAI Responses API. Output items are numbered by `output_index`; each
 * becomes one content block. Requests are stateless (`store: false`), so
 * reasoning items (with their encrypted content) and message/function-call
 * item ids are kept as signatures and sent back on the next request.
 */
import type { ImageContent, TextContent } from "../core/messages.ts";
import { type UsageUpdate, billedOutput, dataUrl, images, prepareMessages, sameModel, toolResultText, userBlocks } from "./convert.ts";
import { ProviderFailure, classifyError, streamFailure } from "./errors.ts";
import { type HttpRequest, bearerHeaders, joinUrl } from "./http.ts";
import { runProvider } from "./run.ts";
import { parseSse } from "./sse.ts";
import { clampThinking, reasoningEffort } from "./thinking.ts";
import type { Provider, ProviderEvent, ProviderRequest } from "./types.ts";

export const openaiResponses: Provider = {
  api: "openai-responses",
  stream: (request, signal) => runProvider(() => buildResponsesRequest(request), decodeResponses, request, signal),
};

export function buildResponsesRequest(request: ProviderRequest): HttpRequest {
  const input: unknown[] = [];
  let toolImages: ImageContent[] = [];
  for (const message of prepareMessages(request.messages, request.model)) {
    if (message.role !== "toolResult" && toolImages.length > 0) {
      input.push(imagesFromTools(toolImages));
      toolImages = [];
    }
    if (message.role === "user") {
      input.push({ role: "user", content: inputContent(userBlocks(message)) });
    } else if (message.role === "assistant") {
      const same = sameModel(message, request.model);
      for (const block of message.content) {
        if (block.type === "thinking") {
          if (same && block.thinkingSignature) input.push(JSON.parse(block.thinkingSignature));
        } else if (block.type === "text") {
          if (block.text.length === 0) continue;
          input.push({
            type: "message",
            role: "assistant",
            status: "completed",
            content: [{ type: "output_text", text: block.text, annotations: [] }],
            ...(same && block.textSignature ? { id: block.textSignature } : {}),
          });
        } else {
          const [callId, itemId] = block.id.split("|");
          input.push({
            type: "function_call",
            call_id: callId,
            name: block.name,
            arguments: JSON.stringify(block.arguments),
            ...(same && itemId ? { id: itemId } : {}),
          });
        }
      }
    } else {
      input.push({ type: "function_call_output", call_id: message.toolCallId.split("|")[0], output: toolResultText(message) });
      toolImages.push(...images(message.content));
    }
  }
  if (toolImages.length > 0) input.push(imagesFromTools(toolImages));

  const body: Record<string, unknown> = {
    model: request.model.id,
    input,
    stream: true,
    store: false,
    max_output_tokens: request.model.maxTokens,
  };
  if (request.systemPrompt) body.instructions = request.systemPrompt;
  if (request.tools.length > 0) {
    body.tools = request.tools.map((t) => ({ type: "function", name: t.name, description: t.description, parameters: t.parameters, strict: false }));
  }
  const effort = reasoningEffort(clampThinking(request.thinkingLevel, request.model));
  if (effort) {
    body.reasoning = { effort, summary: "auto" };
    body.include = ["reasoning.encrypted_content"];
  }
  if (request.outputSchema) body.text = { format: { type: "json_schema", ...request.outputSchema, strict: false } };
  if (request.cacheKey) body.prompt_cache_key = request.cacheKey;
  return { url: joinUrl(request.model.baseUrl, "responses"), headers: bearerHeaders(request.auth), body };
}

function inputContent(content: (TextContent | ImageContent)[]): unknown[] {
  return content.map((c) => (c.type === "text" ? { type: "input_text", text: c.text } : { type: "input_image", image_url: dataUrl(c), detail: "auto" }));
}

/** Function-call output is text only, so a tool's images follow as a user message. */
function imagesFromTools(list: ImageContent[]): unknown {
  return { role: "user", content: [{ type: "input_text", text: "Attached image(s) from tool result:" }, ...inputContent(list)] };
}

interface OutputItem {
  type: string;
  id?: string;
  call_id?: string;
  name?: string;
  arguments?: string;
}

interface ResponsesEvent {
  type: string;
  output_index?: number;
  summary_index?: number;
  delta?: string;
  text?: string;
  item?: OutputItem;
  error?: unknown;
  response?: {
    status?: string;
    incomplete_details?: { reason?: string } | null;
    error?: { code?: string; message?: string } | null;
    usage?: { input_tokens?: number; output_tokens?: number; total_tokens?: number; input_tokens_details?: { cached_tokens?: number; cache_write_tokens?: number } };
  };
}

export async function* decodeResponses(body: ReadableStream<Uint8Array>): AsyncGenerator<ProviderEvent> {
  // output_index → our block index, with whether its arguments have streamed
  const blocks = new Map<number, { index: number; kind: string; streamed: boolean }>();
  let toolUse = false;
  const blockFor = (event: ResponsesEvent, kind: string) => {
    const key = event.output_index ?? blocks.size;
    let block = blocks.get(key);
    if (!block) {
      block = { index: blocks.size, kind, streamed: false };
      blocks.set(key, block);
    }
    return block;
  };
  for await (const sse of parseSse(body)) {
    const event = JSON.parse(sse.data) as ResponsesEvent;
    switch (event.type) {
      case "response.output_item.added": {
        const item = event.item;
        const block = blockFor(event, item?.type ?? "");
        if (item?.type === "function_call") {
          toolUse = true;
          const id = item.id ? `${item.call_id}|${item.id}` : (item.call_id ?? `call_${block.index}`);
          yield { type: "toolcall_start", index: block.index, id, name: item.name ?? "" };
        }
        break;
      }
      case "response.reasoning_summary_part.added":
        if ((event.summary_index ?? 0) > 0) yield { type: "thinking_delta", index: blockFor(event, "reasoning").index, delta: "\n\n" };
        break;
      case "response.reasoning_summary_text.delta":
      case "response.reasoning_text.delta": {
        const block = blockFor(event, "reasoning");
        if (event.delta) {
          block.streamed = true;
          yield { type: "thinking_delta", index: block.index, delta: event.delta };
        }
        break;
      }
      case "response.reasoning_text.done": {
        // a server that sends the text only when it is done
        const block = blockFor(event, "reasoning");
        if (!block.streamed && event.text) yield { type: "thinking_delta", index: block.index, delta: event.text };
        block.streamed = true;
        break;
      }
      case "response.output_text.delta":
      case "response.refusal.delta":
        if (event.delta) yield { type: "text_delta", index: blockFor(event, "message").index, delta: event.delta };
        break;
      case "response.function_call_arguments.delta": {
        const block = blockFor(event, "function_call");
        if (event.delta) {
          block.streamed = true;
          yield { type: "toolcall_delta", index: block.index, delta: event.delta };
        }
        break;
      }
      case "response.output_item.done": {
        const item = event.item;
        const block = blockFor(event, item?.type ?? "");
        if (item?.type === "reasoning") {
          yield { type: "thinking_signature", index: block.index, signature: JSON.stringify(item) };
        } else if (item?.type === "message" && item.id) {
          yield { type: "text_signature", index: block.index, signature: item.id };
        } else if (item?.type === "function_call" && !block.streamed) {
          // arguments only in the final item, or none at all for a tool without parameters
          if (item.arguments) yield { type: "toolcall_delta", index: block.index, delta: item.arguments };
          else yield { type: "toolcall_args", index: block.index, arguments: {} };
        }
        break;
      }
      case "response.completed":
      case "response.incomplete": {
        const response = event.response ?? {};
        if (response.usage) yield { type: "usage", usage: responsesUsage(response.usage) };
        const reason = response.incomplete_details?.reason;
        if (response.status === "incomplete" && reason === "content_filter") {
          throw new ProviderFailure({ message: "the provider stopped the response: content_filter", retryable: false, kind: "refusal" });
        }
        yield { type: "stop", reason: response.status === "incomplete" ? "length" : toolUse ? "toolUse" : "stop" };
        return;
      }
      case "response.failed": {
        const error = event.response?.error;
        throw new ProviderFailure(classifyError(error?.message ?? "the response failed", error?.code ?? ""));
      }
      case "error":
        // `{type:"error", error:{type, code, message}}`, or the older flat `{type:"error", code, message}`
        throw streamFailure(typeof event.error === "object" && event.error !== null ? event : { error: event });
    }
  }
}

function responsesUsage(usage: NonNullable<NonNullable<ResponsesEvent["response"]>["usage"]>): UsageUpdate {
  const input = usage.input_tokens ?? 0;
  const cacheRead = usage.input_tokens_details?.cached_tokens ?? 0;
  // Bedrock's Responses endpoint counts the tokens it wrote to its cache inside input_tokens too
  const cacheWrite = usage.input_tokens_details?.cache_write_tokens ?? 0;
  return { input: input - cacheRead - cacheWrite, output: billedOutput(usage.output_tokens ?? 0, input, usage.total_tokens), cacheRead, cacheWrite };
}
