/** Message builders shared by the session tests. */
import { emptyUsage, type AssistantMessage, type ToolCall, type ToolResultMessage, type UserMessage } from "../../src/core/messages.ts";

export function user(text: string, timestamp = 1_700_000_000_000): UserMessage {
  return { role: "user", content: text, timestamp };
}

export function assistant(content: AssistantMessage["content"], extra: Partial<AssistantMessage> = {}): AssistantMessage {
  return {
    role: "assistant",
    content,
    api: "anthropic",
    provider: "anthropic",
    model: "claude-test",
    usage: emptyUsage(),
    stopReason: content.some((part) => part.type === "toolCall") ? "toolUse" : "stop",
    timestamp: 1_700_000_000_100,
    ...extra,
  };
}

export function toolCall(id: string, name: string, args: Record<string, unknown>): ToolCall {
  return { type: "toolCall", id, name, arguments: args };
}

export function toolResult(call: ToolCall, text: string, extra: Partial<ToolResultMessage> = {}): ToolResultMessage {
  return {
    role: "toolResult",
    toolCallId: call.id,
    toolName: call.name,
    content: [{ type: "text", text }],
    isError: false,
    timestamp: 1_700_000_000_200,
    ...extra,
  };
}
