/**
 * Cheap token estimates for compaction thresholds and `contextUsage`. They only
 * need to be in the right range: four characters a token overshoots a little
 * for code and prose, which errs on the side of compacting early.
 */
import type { AgentMessage, AssistantMessage, ImageContent, TextContent } from "../core/messages.ts";

/** Providers bill an image by its size; a fixed mid-range figure keeps the estimate free. */
export const IMAGE_TOKENS = 1200;

export function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

export function estimateMessageTokens(m: AgentMessage): number {
  switch (m.role) {
    case "user":
    case "custom":
      return typeof m.content === "string" ? estimateTokens(m.content) : contentTokens(m.content);
    case "toolResult":
      return contentTokens(m.content);
    case "assistant": {
      let chars = 0;
      for (const block of m.content) {
        if (block.type === "text") chars += block.text.length;
        else if (block.type === "thinking") chars += block.thinking.length;
        else chars += block.name.length + JSON.stringify(block.arguments).length;
      }
      return Math.ceil(chars / 4);
    }
    case "bashExecution":
      return m.excludeFromContext ? 0 : estimateTokens(m.command) + estimateTokens(m.output);
    case "compactionSummary":
    case "branchSummary":
      return estimateTokens(m.summary);
  }
}

/** The part of a provider's usage report that measures what the context holds. */
export interface ContextUsage {
  input: number;
  cacheRead: number;
  output: number;
  /** Anthropic counts freshly cached input here rather than in `input` */
  cacheWrite?: number;
}

/**
 * The provider's own count for the last answered request is exact, so it anchors
 * the total and only the messages after it are estimated. `lastUsage` stands in
 * for that message's usage when the caller holds it apart from the message.
 */
export function estimateContextTokens(messages: AgentMessage[], lastUsage?: ContextUsage): number {
  const anchor = lastAnsweredIndex(messages);
  let total = 0;
  let from = 0;
  if (anchor >= 0) {
    const usage = lastUsage ?? (messages[anchor] as AssistantMessage).usage;
    const counted = usage.input + usage.cacheRead + (usage.cacheWrite ?? 0) + usage.output;
    if (counted > 0) {
      total = counted;
      from = anchor + 1;
    }
  }
  for (let i = from; i < messages.length; i++) total += estimateMessageTokens(messages[i]);
  return total;
}

/** The last assistant message from a completed request; aborted and failed turns report partial or no usage. */
function lastAnsweredIndex(messages: AgentMessage[]): number {
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i];
    if (m.role === "assistant" && m.stopReason !== "aborted" && m.stopReason !== "error") return i;
  }
  return -1;
}

function contentTokens(content: (TextContent | ImageContent)[]): number {
  let chars = 0;
  let images = 0;
  for (const block of content) {
    if (block.type === "text") chars += block.text.length;
    else images++;
  }
  return Math.ceil(chars / 4) + images * IMAGE_TOKENS;
}
