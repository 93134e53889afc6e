/** Folds provider events into final blocks the way the agent loop will, so tests assert on results, not on chunking. */
import type { ProviderError, ProviderEvent } from "../../src/providers/types.ts";

export type AssembledBlock =
  | { type: "text"; text: string; signature?: string }
  | { type: "thinking"; thinking: string; signature?: string; redacted?: boolean }
  | { type: "toolCall"; id: string; name: string; args: Record<string, unknown>; thoughtSignature?: string };

export interface Assembled {
  blocks: AssembledBlock[];
  usage: Extract<ProviderEvent, { type: "usage" }>["usage"];
  stop?: string;
  error?: ProviderError;
}

export function assemble(events: ProviderEvent[]): Assembled {
  const blocks = new Map<number, AssembledBlock & { json?: string }>();
  const result: Assembled = { blocks: [], usage: {} };
  const textAt = (index: number) => {
    if (!blocks.has(index)) blocks.set(index, { type: "text", text: "" });
    return blocks.get(index) as Extract<AssembledBlock, { type: "text" }>;
  };
  const thinkingAt = (index: number) => {
    if (!blocks.has(index)) blocks.set(index, { type: "thinking", thinking: "" });
    return blocks.get(index) as Extract<AssembledBlock, { type: "thinking" }>;
  };
  for (const event of events) {
    switch (event.type) {
      case "text_delta":
        textAt(event.index).text += event.delta;
        break;
      case "text_signature":
        textAt(event.index).signature = event.signature;
        break;
      case "thinking_delta":
        thinkingAt(event.index).thinking += event.delta;
        break;
      case "thinking_signature": {
        const block = thinkingAt(event.index);
        block.signature = event.signature;
        if (event.redacted) block.redacted = true;
        break;
      }
      case "toolcall_start":
        blocks.set(event.index, { type: "toolCall", id: event.id, name: event.name, args: {}, json: "" });
        break;
      case "toolcall_delta":
        (blocks.get(event.index) as { json: string }).json += event.delta;
        break;
      case "toolcall_args": {
        const block = blocks.get(event.index) as Extract<AssembledBlock, { type: "toolCall" }>;
        block.args = event.arguments;
        if (event.thoughtSignature) block.thoughtSignature = event.thoughtSignature;
        break;
      }
      case "usage":
        result.usage = { ...result.usage, ...event.usage };
        break;
      case "stop":
        result.stop = event.reason;
        break;
      case "error":
        result.error = event.error;
        break;
    }
  }
  const indices = [...blocks.keys()].sort((a, b) => a - b);
  if (indices.some((index, i) => index !== i)) throw new Error(`block indices are not 0..n-1: ${indices.join(",")}`);
  result.blocks = indices.map((index) => {
    const { json, ...block } = blocks.get(index) as AssembledBlock & { json?: string };
    if (block.type === "toolCall" && json) block.args = JSON.parse(json);
    return block;
  });
  return result;
}
