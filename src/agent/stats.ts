/** `get_session_stats`: message counts, tool calls, tokens and cost of the current context. */
import type { AgentMessage, AssistantMessage } from "../core/messages.ts";
import { sumUsage } from "../core/usage.ts";

export function sessionStats(context: AgentMessage[], file: { path: string | undefined; sessionId: string }) {
  const count = (role: AgentMessage["role"]) => context.filter((m) => m.role === role).length;
  const answers = context.filter((m): m is AssistantMessage => m.role === "assistant");
  const usage = sumUsage(answers);
  const tokens = { input: usage.input, output: usage.output, cacheRead: usage.cacheRead, cacheWrite: usage.cacheWrite, total: usage.totalTokens };
  const cost = usage.cost.total;
  let toolCalls = 0;
  for (const m of answers) toolCalls += m.content.filter((c) => c.type === "toolCall").length;
  return {
    sessionFile: file.path,
    sessionId: file.sessionId,
    userMessages: count("user"),
    assistantMessages: count("assistant"),
    toolCalls,
    toolResults: count("toolResult"),
    totalMessages: context.length,
    tokens,
    cost,
  };
}
