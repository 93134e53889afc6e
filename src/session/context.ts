/**
 * Turns one root→leaf path of the session tree into what the agent resumes
 * with: the messages the model sees and the settings last chosen on that path.
 */
import type { AgentMessage } from "../core/messages.ts";
import type { ThinkingLevel } from "../core/enums.ts";
import type { CompactionEntry, SessionEntry } from "./entries.ts";

export interface SessionContext {
  messages: AgentMessage[];
  model?: { provider: string; modelId: string };
  thinkingLevel?: ThinkingLevel;
  name?: string;
}

export function buildContext(path: readonly SessionEntry[]): SessionContext {
  const context: SessionContext = { messages: [] };
  let compactionIndex = -1;
  path.forEach((entry, index) => {
    switch (entry.type) {
      case "model_change":
        context.model = { provider: entry.provider, modelId: entry.modelId };
        break;
      case "thinking_level_change":
        context.thinkingLevel = entry.thinkingLevel;
        break;
      case "session_info":
        context.name = entry.name;
        break;
      case "compaction":
        compactionIndex = index;
        break;
      case "message":
        // A resumed session should keep talking to the model that last answered.
        if (entry.message.role === "assistant") {
          context.model = { provider: entry.message.provider, modelId: entry.message.model };
        }
        break;
    }
  });

  if (compactionIndex < 0) {
    context.messages = path.flatMap(toMessages);
    return context;
  }
  // Only the newest compaction counts: it already summarises any earlier one.
  const compaction = path[compactionIndex] as CompactionEntry;
  const firstKept = path.findIndex((entry, i) => i < compactionIndex && entry.id === compaction.firstKeptEntryId);
  const kept = firstKept < 0 ? [] : path.slice(firstKept, compactionIndex);
  context.messages = [
    {
      role: "compactionSummary",
      summary: compaction.summary,
      tokensBefore: compaction.tokensBefore,
      timestamp: Date.parse(compaction.timestamp),
    },
    ...kept.flatMap(toMessages),
    ...path.slice(compactionIndex + 1).flatMap(toMessages),
  ];
  return context;
}

function toMessages(entry: SessionEntry): AgentMessage[] {
  if (entry.type === "message") return [entry.message];
  if (entry.type === "branch_summary") {
    return [
      { role: "branchSummary", summary: entry.summary, fromId: entry.fromId, timestamp: Date.parse(entry.timestamp) },
    ];
  }
  return [];
}
