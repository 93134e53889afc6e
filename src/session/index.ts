/** Session persistence and export: what the agent and the RPC handlers import. */
export { buildContext, projectPath, type ContextItem, type SessionContext } from "./context.ts";
export type {
  BranchSummaryEntry,
  CompactionEntry,
  ContextEditEntry,
  CustomEntry,
  CustomMessageEntry,
  EntryInput,
  LabelEntry,
  MessageEntry,
  ModelChangeEntry,
  SessionEntry,
  SessionHeader,
  SessionInfoEntry,
  ThinkingLevelChangeEntry,
  UsageEntry,
} from "./entries.ts";
export { exportHtml, writeExport, type ExportInput, type ExportOptions } from "./export-html.ts";
export { findSessionById, listSessions, locateSession, sessionDirFor, type SessionListing } from "./paths.ts";
export { makeRedactor, REDACTED, type Redactor } from "./redact.ts";
export { entriesSince, sessionTree, type TreeNode } from "./tree.ts";
export { SessionStore, type CreateOptions, type OpenedSession } from "./store.ts";
