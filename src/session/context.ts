/**
 * Turns one root→leaf path of the session tree into what the agent resumes
 * with: the messages the model sees and the settings last chosen on that path.
 * The rules are Pi 1.6's (its session-format.md), so a file resumed in either
 * agent gives the model the same conversation: the newest compaction stands
 * for everything before its first kept entry, `context_edit` entries replace
 * or omit what an earlier entry contributes, `custom_message` entries are
 * context, and Pi's system messages stay in the file but out of the context
 * (nova sends its own system prompt).
 */
import type { AgentMessage, SystemMessage } from "../core/messages.ts";
import type { ThinkingLevel } from "../core/enums.ts";
import type { CompactionEntry, ContextEditEntry, SessionEntry } from "./entries.ts";

export interface SessionContext {
  messages: AgentMessage[];
  model?: { provider: string; modelId: string };
  thinkingLevel?: ThinkingLevel;
  name?: string;
}

export function buildContext(path: readonly SessionEntry[]): SessionContext {
  const context: SessionContext = { messages: [] };
  for (const entry of path) {
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
      case "message":
        // A resumed session should keep talking to the model that last answered.
        if (entry.message.role === "assistant") {
          context.model = { provider: entry.message.provider, modelId: entry.message.model };
        }
        break;
    }
  }
  const { compaction, items } = projectPath(path);
  context.messages = [...(compaction ? toMessages(compaction) : []), ...items.map((item) => item.message)];
  return context;
}

/** One message of the context and the entry it comes from. */
export interface ContextItem {
  entryId: string;
  message: AgentMessage;
}

/**
 * The context of a path, entry by entry: the newest compaction (whose summary
 * opens the context) and the messages after it, context edits applied.
 */
export function projectPath(path: readonly SessionEntry[]): { compaction?: CompactionEntry; items: ContextItem[] } {
  const entries = contextEntries(path);
  const edits = new Map<string, ContextEditEntry>();
  for (const entry of entries) if (entry.type === "context_edit") edits.set(entry.targetId, entry);
  const first = entries[0];
  const compaction = first?.type === "compaction" ? first : undefined;
  const items: ContextItem[] = [];
  entries.forEach((entry, index) => {
    // an older compaction can sit inside the kept range: only the newest (first) one speaks
    if (entry.type === "compaction" && (compaction || index > 0)) return;
    for (const message of edited(toMessages(entry), edits.get(entry.id))) items.push({ entryId: entry.id, message });
  });
  return { compaction, items };
}

/**
 * The entries that make up the context: the whole path, or, after a
 * compaction, the newest compaction, the kept entries from its first kept one
 * (system messages excepted) and everything after it.
 */
function contextEntries(path: readonly SessionEntry[]): readonly SessionEntry[] {
  const index = path.findLastIndex((entry) => entry.type === "compaction");
  if (index < 0) return path;
  const compaction = path[index] as CompactionEntry;
  const firstKept = path.findIndex((entry, i) => i < index && entry.id === compaction.firstKeptEntryId);
  const kept = firstKept < 0 ? [] : path.slice(firstKept, index).filter((entry) => !isSystem(entry));
  return [compaction, ...kept, ...path.slice(index + 1)];
}

function isSystem(entry: SessionEntry): boolean {
  return entry.type === "message" && entry.message.role === "system";
}

function toMessages(entry: SessionEntry): AgentMessage[] {
  switch (entry.type) {
    case "message":
      return entry.message.role === "system" ? [] : [withContent(entry.message)];
    case "custom_message":
      return [
        {
          role: "custom",
          customType: entry.customType,
          content: entry.content ?? [],
          display: entry.display,
          ...(entry.details === undefined ? {} : { details: entry.details }),
          timestamp: Date.parse(entry.timestamp),
        },
      ];
    case "branch_summary":
      return entry.summary ? [{ role: "branchSummary", summary: entry.summary, fromId: entry.fromId, timestamp: Date.parse(entry.timestamp) }] : [];
    case "compaction":
      return [{ role: "compactionSummary", summary: entry.summary, tokensBefore: entry.tokensBefore, timestamp: Date.parse(entry.timestamp) }];
    default:
      return [];
  }
}

/** Hand-edited or old files can hold a message without content; it is read as empty. */
function withContent(message: Exclude<AgentMessage | SystemMessage, SystemMessage>): AgentMessage {
  if ((message.role === "user" || message.role === "assistant" || message.role === "toolResult") && message.content == null) {
    return { ...message, content: [] } as AgentMessage;
  }
  return message;
}

/** A context_edit replaces only the content of its target, or (replacement null) leaves it out. */
function edited(messages: AgentMessage[], edit: ContextEditEntry | undefined): AgentMessage[] {
  if (!edit) return messages;
  const { replacement } = edit;
  if (replacement === null) return [];
  return messages.map((message) => {
    switch (message.role) {
      case "user":
      case "custom":
        return { ...message, content: replacement.content };
      case "assistant":
      case "toolResult": {
        const content = typeof replacement.content === "string" ? [{ type: "text" as const, text: replacement.content }] : replacement.content;
        return { ...message, content } as AgentMessage;
      }
      default:
        return message;
    }
  });
}
