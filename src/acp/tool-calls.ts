/**
 * How a built-in tool call looks to an ACP editor: its kind (the icon), a
 * title, the files it touches (for "follow along"), and its content: diffs
 * for write and edit, the result's text and images otherwise. Used for live
 * turns and for the history replayed by session/load alike.
 */
import type { TextContent, ImageContent } from "../core/messages.ts";
import type { TodoPhase } from "../core/todos.ts";
import type { ToolResult } from "../tools/types.ts";
import { resolvePath } from "../tools/paths.ts";

export type ToolKind = "read" | "edit" | "delete" | "move" | "search" | "execute" | "think" | "fetch" | "other";

export type ToolCallContent =
  | { type: "content"; content: TextContent | ImageContent }
  | { type: "diff"; path: string; oldText: string | null; newText: string }
  | { type: "terminal"; terminalId: string };

export interface Location {
  path: string;
  line?: number;
}

export interface ToolCallView {
  title: string;
  kind: ToolKind;
  locations: Location[];
}

const kinds: Record<string, ToolKind> = {
  read: "read",
  write: "edit",
  edit: "edit",
  bash: "execute",
  grep: "search",
  find: "search",
  ls: "search",
  view_image: "read",
  zoom: "read",
  todo: "think",
};

type Args = Record<string, unknown> | string;

export function toolView(name: string, args: Args, cwd: string): ToolCallView {
  const a = typeof args === "string" ? {} : args;
  const str = (key: string) => (typeof a[key] === "string" ? (a[key] as string) : undefined);
  const path = str("path");
  const abs = path !== undefined ? resolvePath(cwd, path) : undefined;
  const kind = kinds[name] ?? "other";
  const at = (line?: number): Location[] => (abs ? [line ? { path: abs, line } : { path: abs }] : []);
  switch (name) {
    case "read":
      return { kind, title: `Read ${path ?? "file"}`, locations: at(typeof a.offset === "number" ? a.offset : undefined) };
    case "write":
      return { kind, title: `Write ${path ?? "file"}`, locations: at() };
    case "edit":
      return { kind, title: `Edit ${path ?? "file"}`, locations: at() };
    case "bash":
      return { kind, title: str("command") ?? "bash", locations: [] };
    case "grep":
      return { kind, title: `grep ${JSON.stringify(str("pattern") ?? "")}${path ? ` in ${path}` : ""}`, locations: at() };
    case "find":
      return { kind, title: `find ${str("pattern") ?? ""}${path ? ` in ${path}` : ""}`.trimEnd(), locations: at() };
    case "ls":
      return { kind, title: `ls ${path ?? "."}`, locations: at() };
    case "view_image":
    case "zoom":
      return { kind, title: `View ${path ?? "image"}`, locations: at() };
    case "todo":
      return { kind, title: "Update the plan", locations: [] };
    default:
      return { kind, title: name, locations: [] };
  }
}

/**
 * The diffs a write or edit makes. An edit shows each replaced passage; a
 * write shows the whole file against what it held before (`before`, null for
 * a new file).
 */
export function toolDiffs(name: string, args: Args, cwd: string, before: string | null): ToolCallContent[] {
  if (typeof args === "string" || typeof args.path !== "string") return [];
  const path = resolvePath(cwd, args.path);
  if (name === "write" && typeof args.content === "string") return [{ type: "diff", path, oldText: before, newText: args.content }];
  if (name !== "edit") return [];
  const pairs = Array.isArray(args.edits) ? args.edits : [args];
  return pairs.flatMap((pair: Record<string, unknown>) =>
    typeof pair?.oldText === "string" && typeof pair.newText === "string" ? [{ type: "diff" as const, path, oldText: pair.oldText, newText: pair.newText }] : [],
  );
}

export function resultContent(result: Pick<ToolResult, "content">): ToolCallContent[] {
  return result.content.map((content) => ({ type: "content", content }));
}

/** The line an edit changed first, so the editor can jump there. */
export function changedLine(details: unknown): number | undefined {
  const line = (details as { firstChangedLine?: unknown } | undefined)?.firstChangedLine;
  return typeof line === "number" ? line : undefined;
}

export interface PlanEntry {
  content: string;
  priority: "high" | "medium" | "low";
  status: "pending" | "in_progress" | "completed";
}

/**
 * The todo list as an ACP plan: every task, named with its phase when there
 * are several; abandoned tasks are left out.
 */
export function planEntries(phases: TodoPhase[]): PlanEntry[] {
  return phases.flatMap((phase) =>
    phase.tasks.flatMap((task) =>
      task.status === "abandoned" ? [] : [{ content: phases.length > 1 ? `${phase.name}: ${task.content}` : task.content, priority: "medium" as const, status: task.status }],
    ),
  );
}
