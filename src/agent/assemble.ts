/**
 * Message assembly as a pure reducer: provider events in, Pi's assistant-
 * message events out, and `finish()` for the final message. A block is closed
 * before the next one opens and every `*_end` carries the complete block;
 * provider block indices become content positions in arrival order. `start`
 * comes out once, before the first block: whoever runs the reducer turns it
 * into message_start. No I/O, no awaits: the caller decides when to wait.
 */
import type { AssistantMessage, TextContent, ThinkingContent, ToolCall } from "../core/messages.ts";
import { emptyUsage } from "../core/messages.ts";
import type { AssistantMessageEvent } from "./events.ts";
import type { Model, ProviderError, ProviderEvent } from "../providers/types.ts";
import { countTotal } from "../core/usage.ts";
import { markFailure } from "../core/errors.ts";

export interface Assembled {
  message: AssistantMessage;
  /** the provider's failure, when the stream ended in one */
  error?: ProviderError;
  /** `start` came out: output reached the host */
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

export class MessageAssembler {
  readonly message: AssistantMessage;
  private readonly blocks = new Map<number, Block>();
  private readonly badArgs = new Map<string, string>();
  private open: Block | undefined;
  private started = false;
  private stop: AssistantMessage["stopReason"] | undefined;
  private error: ProviderError | undefined;

  constructor(
    private readonly model: Model,
    private readonly out: (event: AssistantMessageEvent) => void,
  ) {
    this.message = newAssistantMessage(model);
  }

  /** True once the provider reported an error: nothing after it counts. */
  get failed(): boolean {
    return this.error !== undefined;
  }

  push(event: ProviderEvent): void {
    if (this.error) return;
    switch (event.type) {
      case "text_delta": {
        const block = this.blockFor(event.index, () => ({ type: "text", text: "" }));
        (block.content as TextContent).text += event.delta;
        if (!block.closed) this.out({ type: "text_delta", contentIndex: block.position, delta: event.delta });
        return;
      }
      case "thinking_delta": {
        const block = this.blockFor(event.index, () => ({ type: "thinking", thinking: "" }));
        (block.content as ThinkingContent).thinking += event.delta;
        if (!block.closed) this.out({ type: "thinking_delta", contentIndex: block.position, delta: event.delta });
        return;
      }
      case "text_signature": {
        const block = this.blocks.get(event.index);
        if (block?.content.type === "text") block.content.textSignature = event.signature;
        return;
      }
      case "thinking_signature": {
        const c = this.blockFor(event.index, () => ({ type: "thinking", thinking: "" })).content as ThinkingContent;
        c.thinkingSignature = event.signature;
        if (event.redacted) c.redacted = true;
        return;
      }
      case "toolcall_start":
        this.blockFor(event.index, () => ({ type: "toolCall", id: event.id, name: event.name, arguments: {} }));
        return;
      case "toolcall_delta": {
        const block = this.blocks.get(event.index);
        if (block?.content.type !== "toolCall") return;
        block.raw += event.delta;
        if (!block.closed) this.out({ type: "toolcall_delta", contentIndex: block.position, delta: event.delta });
        return;
      }
      case "toolcall_args": {
        const block = this.blocks.get(event.index);
        if (block?.content.type !== "toolCall") return;
        block.raw = JSON.stringify(event.arguments);
        if (event.thoughtSignature) block.content.thoughtSignature = event.thoughtSignature;
        if (!block.closed) this.out({ type: "toolcall_delta", contentIndex: block.position, delta: block.raw });
        return;
      }
      case "usage":
        Object.assign(this.message.usage, event.usage);
        return;
      case "stop":
        this.stop = event.reason;
        return;
      case "error":
        this.error = event.error;
        return;
    }
  }

  /** The provider's iterator threw (not an abort): the stream ends in that error. */
  fail(thrown: unknown): void {
    this.error ??= { message: (thrown as Error)?.message ?? String(thrown), retryable: false };
  }

  /** Closes the open block and settles the stop reason, usage and cost. */
  finish(aborted: boolean): Assembled {
    this.close();
    for (const block of this.blocks.values()) if (block.content.type === "toolCall" && !block.closed) this.finishArgs(block);
    const { message } = this;
    let error = this.error;
    if (aborted) {
      message.stopReason = "aborted";
      message.errorMessage = "Request was aborted";
    } else if (error) {
      message.stopReason = "error";
      message.errorMessage = error.message;
      if (error.kind) markFailure(message, error.kind);
    } else if (!this.stop) {
      error = { message: "the provider's stream ended without a stop reason", retryable: true };
      message.stopReason = "error";
      message.errorMessage = error.message;
    } else {
      const hasCalls = message.content.some((c) => c.type === "toolCall");
      message.stopReason = this.stop === "stop" && hasCalls ? "toolUse" : this.stop;
    }
    finishUsage(message, this.model);
    return { message, error, started: this.started, badArgs: this.badArgs };
  }

  /** The block at a provider index, opening it (and closing the previous one) when new. */
  private blockFor(index: number, make: () => Block["content"]): Block {
    const known = this.blocks.get(index);
    if (known) return known;
    if (!this.started) {
      this.started = true;
      this.out({ type: "start" });
    }
    this.close();
    const block: Block = { content: make(), position: this.message.content.length, raw: "", closed: false };
    this.message.content.push(block.content);
    this.blocks.set(index, block);
    this.open = block;
    const c = block.content;
    if (c.type === "text") this.out({ type: "text_start", contentIndex: block.position });
    else if (c.type === "thinking") this.out({ type: "thinking_start", contentIndex: block.position });
    else this.out({ type: "toolcall_start", contentIndex: block.position, id: c.id, toolName: c.name });
    return block;
  }

  private close(): void {
    const block = this.open;
    this.open = undefined;
    if (!block) return;
    block.closed = true;
    const c = block.content;
    if (c.type === "text") this.out({ type: "text_end", contentIndex: block.position, content: c.text });
    else if (c.type === "thinking") this.out({ type: "thinking_end", contentIndex: block.position, content: c.thinking });
    else {
      this.finishArgs(block);
      this.out({ type: "toolcall_end", contentIndex: block.position, toolCall: c });
    }
  }

  /** Parses a call's argument text; text that is not a JSON object is kept in badArgs and the call gets `{}`. */
  private finishArgs(block: Block): void {
    const call = block.content as ToolCall;
    call.arguments = {};
    if (block.raw.trim() === "") return;
    try {
      const parsed = JSON.parse(block.raw);
      if (parsed && typeof parsed === "object" && !Array.isArray(parsed)) {
        call.arguments = parsed;
        return;
      }
    } catch {
      // reported through badArgs below
    }
    this.badArgs.set(call.id, block.raw);
  }
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
