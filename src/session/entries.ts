/**
 * The on-disk shapes of a session file, in Pi's current format (version 3,
 * as Pi 1.6 writes it) so that Pi opens nova's sessions and nova opens Pi's:
 * one header line, then one entry per line, each entry pointing at its parent
 * so the file holds a tree. nova's own version-1 files have the same tree
 * shape and are read unchanged.
 */
import type { AgentMessage, ImageContent, SystemMessage, TextContent, Usage } from "../core/messages.ts";
import type { ThinkingLevel } from "../core/enums.ts";

export const SESSION_VERSION = 3;

export interface SessionHeader {
  type: "session";
  version: number;
  id: string;
  /** ISO 8601 */
  timestamp: string;
  cwd: string;
  /** path of the session this one was started from */
  parentSession?: string;
}

interface EntryBase {
  id: string;
  /** the entry this one follows; null for the first entry of the tree */
  parentId: string | null;
  /** ISO 8601 */
  timestamp: string;
}

export interface MessageEntry extends EntryBase {
  type: "message";
  /** a system message is Pi's record of its prompt; nova keeps it and never sends it */
  message: AgentMessage | SystemMessage;
}

export interface ModelChangeEntry extends EntryBase {
  type: "model_change";
  provider: string;
  modelId: string;
}

export interface ThinkingLevelChangeEntry extends EntryBase {
  type: "thinking_level_change";
  thinkingLevel: ThinkingLevel;
}

export interface CompactionEntry extends EntryBase {
  type: "compaction";
  summary: string;
  /** entries on the path from this id on are kept verbatim after the summary */
  firstKeptEntryId: string;
  tokensBefore: number;
  /** Pi's prompt and tool checkpoint at the cut; nova sends its own system prompt */
  systemMessage?: SystemMessage;
  usage?: Usage;
  details?: unknown;
  fromHook?: boolean;
}

export interface BranchSummaryEntry extends EntryBase {
  type: "branch_summary";
  /** the leaf of the branch that was left and summarised */
  fromId: string;
  summary: string;
}

export interface SessionInfoEntry extends EntryBase {
  type: "session_info";
  name: string;
}

export interface LabelEntry extends EntryBase {
  type: "label";
  targetId: string;
  /** absent: the target's label is cleared */
  label?: string;
}

/** Pi 1.6: changes what one earlier entry contributes to the model's context; null leaves it out. */
export interface ContextEditEntry extends EntryBase {
  type: "context_edit";
  targetId: string;
  replacement: { content: string | (TextContent | ImageContent)[] } | null;
}

/** Pi: context an extension injected; reaches the model as user content. */
export interface CustomMessageEntry extends EntryBase {
  type: "custom_message";
  customType: string;
  content: string | (TextContent | ImageContent)[];
  display: boolean;
  details?: unknown;
}

/** Pi: an extension's own state; never part of the context. */
export interface CustomEntry extends EntryBase {
  type: "custom";
  customType: string;
  data?: unknown;
}

/** Pi: usage billed outside an assistant message (cache warming); never part of the context. */
export interface UsageEntry extends EntryBase {
  type: "usage";
  kind: string;
  provider: string;
  model: string;
  usage: Usage;
}

/**
 * Entries of a type nova does not know (written by a newer nova or by Pi) are
 * loaded into the tree typed as one of these and ignored when building context,
 * so their children keep their parent.
 */
export type SessionEntry =
  | MessageEntry
  | ModelChangeEntry
  | ThinkingLevelChangeEntry
  | CompactionEntry
  | BranchSummaryEntry
  | SessionInfoEntry
  | LabelEntry
  | ContextEditEntry
  | CustomMessageEntry
  | CustomEntry
  | UsageEntry;

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

/** What a caller hands to `append`: the store assigns id, parentId and timestamp. */
export type EntryInput = DistributiveOmit<SessionEntry, "id" | "parentId" | "timestamp"> & {
  timestamp?: string;
};

/** Short ids keep files readable; collisions are checked against the ids in use. */
export function newEntryId(inUse: { has(id: string): boolean }): string {
  for (;;) {
    const id = crypto.randomUUID().slice(0, 8);
    if (!inUse.has(id)) return id;
  }
}
