/**
 * Consumes one provider stream and builds the assistant message, reporting
 * it as Pi's block events: a block is closed before the next one opens and
 * every `*_end` carries the complete block. Provider block indices are mapped
 * to content positions in arrival order.
 */
import type { AssistantMessage, TextContent, ThinkingContent, ToolCall } from "../core/messages.ts";
import { emptyUsage } from "../core/messages.ts";
import type { AssistantMessageEvent, EventSink } from "./events.ts";
import type { Model, Provider, ProviderError, ProviderRequest } from "../providers/types.ts";
import { countTotal } from "../core/usage.ts";

export interface StreamOutcome {
  message: AssistantMessage;
  /** the provider's failure, when the stream ended in one */
  error?: ProviderError;
  /** message_start was emitted: output reached the host */
  started: boolean;
  /** raw argument text of tool calls whose arguments were not valid JSON */
  badArgs: Map<string, string>;
}

type Block = { content: TextContent | ThinkingContent | ToolCall; position: number; raw: string; closed: boolean };

export function newAssistantMessage(model: Model | undefined): AssistantMessage {
  return {
    role: "assistant",
    content: [],
    api: model?.api ?? "none",
    provider: model?.provider ?? "none",
    model: model?.id ?? "none",
    usage: emptyUsage(),
    stopReason: "stop",
    timestamp: Date.now(),
  };
}

export async function streamAssistantMessage(
  provider: Provider,
  request: ProviderRequest,
  signal: AbortSignal,
  sink: EventSink,
): Promise<StreamOutcome> {
  const message = newAssistantMessage(request.model);
  const blocks = new Map<number, Block>();
  const badArgs = new Map<string, string>();
  let open: Block | undefined;
  let started = false;
  let stop: AssistantMessage["stopReason"] | undefined;
  let error: ProviderError | undefined;

  const emit = async (event: AssistantMessageEvent) => {
    sink.emit({ type: "message_update", message, assistantMessageEvent: event });
    const wait = sink.ready();
    if (wait) await wait;
  };
  const start = () => {
    if (started) return;
    started = true;
    sink.emit({ type: "message_start", message });
  };
  const close = async () => {
    const block = open;
    open = undefined;
    if (!block) return;
    block.closed = true;
    const c = block.content;
    if (c.type === "text") await emit({ type: "text_end", contentIndex: block.position, content: c.text });
    else if (c.type === "thinking") await emit({ type: "thinking_end", contentIndex: block.position, content: c.thinking });
    else {
      finishArgs(block, badArgs);
      await emit({ type: "toolcall_end", contentIndex: block.position, toolCall: c });
    }
  };
  /** returns the block, opening it (and closing the previous one) when new */
  const blockFor = async (index: number, make: () => Block["content"]): Promise<Block> => {
    const known = blocks.get(index);
    if (known) return known;
    start();
    await close();
    const block: Block = { content: make(), position: message.content.length, raw: "", closed: false };
    message.content.push(block.content);
    blocks.set(index, block);
    open = block;
    const c = block.content;
    if (c.type === "text") await emit({ type: "text_start", contentIndex: block.position });
    else if (c.type === "thinking") await emit({ type: "thinking_start", contentIndex: block.position });
    else await emit({ type: "toolcall_start", contentIndex: block.position, id: c.id, toolName: c.name });
    return block;
  };

  try {
    for await (const event of provider.stream(request, signal)) {
      switch (event.type) {
        case "text_delta": {
          const block = await blockFor(event.index, () => ({ type: "text", text: "" }));
          (block.content as TextContent).text += event.delta;
          if (!block.closed) await emit({ type: "text_delta", contentIndex: block.position, delta: event.delta });
          break;
        }
        case "thinking_delta": {
          const block = await blockFor(event.index, () => ({ type: "thinking", thinking: "" }));
          (block.content as ThinkingContent).thinking += event.delta;
          if (!block.closed) await emit({ type: "thinking_delta", contentIndex: block.position, delta: event.delta });
          break;
        }
        case "text_signature": {
          const block = blocks.get(event.index);
          if (block?.content.type === "text") block.content.textSignature = event.signature;
          break;
        }
        case "thinking_signature": {
          const block = await blockFor(event.index, () => ({ type: "thinking", thinking: "" }));
          const c = block.content as ThinkingContent;
          c.thinkingSignature = event.signature;
          if (event.redacted) c.redacted = true;
          break;
        }
        case "toolcall_start":
          await blockFor(event.index, () => ({ type: "toolCall", id: event.id, name: event.name, arguments: {} }));
          break;
        case "toolcall_delta": {
          const block = blocks.get(event.index);
          if (!block || block.content.type !== "toolCall") break;
          block.raw += event.delta;
          if (!block.closed) await emit({ type: "toolcall_delta", contentIndex: block.position, delta: event.delta });
          break;
        }
        case "toolcall_args": {
          const block = blocks.get(event.index);
          if (!block || block.content.type !== "toolCall") break;
          block.raw = JSON.stringify(event.arguments);
          if (event.thoughtSignature) block.content.thoughtSignature = event.thoughtSignature;
          if (!block.closed) await emit({ type: "toolcall_delta", contentIndex: block.position, delta: block.raw });
          break;
        }
        case "usage":
          Object.assign(message.usage, event.usage);
          break;
        case "stop":
          stop = event.reason;
          break;
        case "error":
          error = event.error;
          break;
      }
      if (error) break;
    }
  } catch (thrown) {
    if (!signal.aborted) error = { message: (thrown as Error).message, retryable: false };
  }
  await close();
  for (const block of blocks.values()) if (block.content.type === "toolCall" && !block.closed) finishArgs(block, badArgs);

  if (signal.aborted) {
    message.stopReason = "aborted";
    message.errorMessage = "Request was aborted";
  } else if (error) {
    message.stopReason = "error";
    message.errorMessage = error.message;
  } else if (!stop) {
    error = { message: "the provider's stream ended without a stop reason", retryable: true };
    message.stopReason = "error";
    message.errorMessage = error.message;
  } else {
    const hasCalls = message.content.some((c) => c.type === "toolCall");
    message.stopReason = stop === "stop" && hasCalls ? "toolUse" : stop;
  }
  finishUsage(message, request.model);
  return { message, error, started, badArgs };
}

/** Totals and dollar cost from the model's per-million prices. */
function finishUsage(message: AssistantMessage, model: Model): void {
  const u = message.usage;
  u.totalTokens = countTotal(u);
  const per = (tokens: number, price: number) => (tokens * price) / 1_000_000;
  const c = u.cost;
  c.input = per(u.input, model.cost.input);
  c.output = per(u.output, model.cost.output);
  c.cacheRead = per(u.cacheRead, model.cost.cacheRead);
  c.cacheWrite = per(u.cacheWrite, model.cost.cacheWrite);
  c.total = countTotal(c);
}

function finishArgs(block: Block, badArgs: Map<string, string>): void {
  const call = block.content as ToolCall;
  if (block.raw.trim() === "") {
    call.arguments = {};
    return;
  }
  try {
    const parsed = JSON.parse(block.raw);
    if (parsed && typeof parsed === "object" && !Array.isArray(parsed)) {
      call.arguments = parsed;
      return;
    }
  } catch {
    // reported through badArgs below
  }
  call.arguments = {};
  badArgs.set(call.id, block.raw);
}
