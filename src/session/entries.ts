/**
 * The on-disk shapes of a session file, in Pi's format so that Pi tooling (and
 * Pi's own tests) can read nova sessions: one header line, then one entry per
 * line, each entry pointing at its parent so the file holds a tree.
 */
import type { AgentMessage } from "../core/messages.ts";
import type { ThinkingLevel } from "../core/enums.ts";

export const SESSION_VERSION = 1;

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
  message: AgentMessage;
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
  details?: unknown;
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
  label: string;
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
  | LabelEntry;

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
