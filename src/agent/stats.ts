/** `get_session_stats`: message counts, tool calls, tokens and cost of the current context. */
import type { AgentMessage } from "./messages.ts";

export function sessionStats(context: AgentMessage[], file: { path: string | undefined; sessionId: string }) {
  const count = (role: AgentMessage["role"]) => context.filter((m) => m.role === role).length;
  const tokens = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 };
  let cost = 0;
  let toolCalls = 0;
  for (const m of context) {
    if (m.role !== "assistant") continue;
    tokens.input += m.usage.input;
    tokens.output += m.usage.output;
    tokens.cacheRead += m.usage.cacheRead;
    tokens.cacheWrite += m.usage.cacheWrite;
    cost += m.usage.cost.total;
    toolCalls += m.content.filter((c) => c.type === "toolCall").length;
  }
  tokens.total = tokens.input + tokens.output + tokens.cacheRead + tokens.cacheWrite;
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
