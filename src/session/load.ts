/**
 * Reads a session file back into a header and a list of entries, repairing what
 * a crash can leave behind. A session must survive being killed mid-write, so
 * every damaged line becomes a warning the caller prints, never an exception.
 */
import type { SessionEntry, SessionHeader } from "./entries.ts";

export interface LoadedSession {
  header: SessionHeader;
  entries: SessionEntry[];
  warnings: string[];
  /** false when the last line has no LF: the next append must start a new line */
  endsWithNewline: boolean;
}

export type LoadResult = { ok: true; session: LoadedSession } | { ok: false; error: string };

/** `source` names the file in messages, e.g. its path. */
export function parseSessionText(text: string, source: string): LoadResult {
  const lines = text.split("\n");
  const endsWithNewline = text.length === 0 || text.endsWith("\n");
  const lastIndex = endsWithNewline ? lines.length - 2 : lines.length - 1;

  const header = parseHeader(lines[0] ?? "");
  if (typeof header === "string") {
    return { ok: false, error: `${source}: line 1 is not a session header (${header})` };
  }

  const warnings: string[] = [];
  const entries: SessionEntry[] = [];
  const known = new Set<string>();
  for (let i = 1; i <= lastIndex; i++) {
    const line = lines[i]!;
    if (line.trim() === "") continue;
    const where = `${source}: line ${i + 1}`;
    const parsed = parseJson(line);
    if (parsed === undefined) {
      warnings.push(i === lastIndex && !endsWithNewline ? `${where} is incomplete (the session was interrupted while writing it); skipped` : `${where} is not valid JSON; skipped`);
      continue;
    }
    const problem = entryProblem(parsed);
    if (problem) {
      warnings.push(`${where}: ${problem}; skipped`);
      continue;
    }
    const entry = parsed as unknown as SessionEntry;
    if (known.has(entry.id)) {
      warnings.push(`${where}: entry id "${entry.id}" is already used by an earlier entry; skipped`);
      continue;
    }
    if (entry.parentId !== null && !known.has(entry.parentId)) {
      const previous = entries.at(-1)?.id ?? null;
      warnings.push(
        `${where}: parent "${entry.parentId}" of entry "${entry.id}" is not in the file; attached to ${previous === null ? "the root" : `the previous entry "${previous}"`}`,
      );
      entry.parentId = previous;
    }
    known.add(entry.id);
    entries.push(entry);
  }
  return { ok: true, session: { header, entries, warnings, endsWithNewline } };
}

function parseJson(line: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(line);
    return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

function parseHeader(line: string): SessionHeader | string {
  const value = parseJson(line);
  if (value === undefined) return "expected a JSON object";
  if (value.type !== "session") return `expected "type":"session", got ${JSON.stringify(value.type)}`;
  if (typeof value.id !== "string" || value.id === "") return `expected a string "id"`;
  return value as unknown as SessionHeader;
}

/** Checks only what the store and context builder rely on; unknown types pass. */
function entryProblem(value: Record<string, unknown>): string | undefined {
  if (typeof value.type !== "string") return `expected a string "type"`;
  if (typeof value.id !== "string" || value.id === "") return `expected a non-empty string "id"`;
  if (value.parentId !== null && typeof value.parentId !== "string") {
    return `expected "parentId" to be a string or null`;
  }
  switch (value.type) {
    case "message": {
      const message = value.message as { role?: unknown } | undefined;
      return typeof message === "object" && message !== null && typeof message.role === "string" ? undefined : `expected "message" to be an object with a string "role"`;
    }
    case "compaction":
      return typeof value.summary === "string" && typeof value.firstKeptEntryId === "string" ? undefined : `expected string "summary" and "firstKeptEntryId" in a compaction entry`;
    case "branch_summary":
      return typeof value.summary === "string" ? undefined : `expected a string "summary"`;
    case "session_info":
      return typeof value.name === "string" ? undefined : `expected a string "name"`;
    case "model_change":
      return typeof value.provider === "string" && typeof value.modelId === "string" ? undefined : `expected string "provider" and "modelId" in a model_change entry`;
    case "session":
      return `a second session header`;
    default:
      return undefined;
  }
}
