/**
 * What the gate needs to know about a write or edit: where it really lands
 * (symlinks resolved, also for a file that does not exist yet), whether that
 * is inside the session cwd, which protected pattern it matches, and the
 * unified diff it would make (capped) for the question to the host.
 */
import { lstatSync, readlinkSync, realpathSync, statSync, readFileSync } from "node:fs";
import { homedir } from "node:os";
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from "node:path";
import { replacementDiff } from "../tools/edit-diff.ts";
import { plannedEdit } from "../tools/edit.ts";
import { resolvePath } from "../tools/paths.ts";
import { splitStyle } from "../tools/text-style.ts";

/** The diff in a question stops here, with a note saying how much was left out. */
export const MAX_DIFF_CHARS = 32_000;
/** A file bigger than this is not read for a diff. */
const MAX_DIFF_BASE_BYTES = 1024 * 1024;

export interface FileTarget {
  /** absolute, symlinks resolved */
  path: string;
  inside: boolean;
}

export function fileTarget(cwd: string, path: string): FileTarget {
  const root = realOf(resolve(cwd));
  const real = realOf(resolvePath(cwd, path));
  const rel = relative(root, real);
  return { path: real, inside: rel === "" || (!rel.startsWith(`..${sep}`) && rel !== ".." && !isAbsolute(rel)) };
}

/** The real path of a file that may not exist yet: its nearest existing ancestor resolved, the rest appended. */
function realOf(path: string, depth = 0): string {
  try {
    return realpathSync(path);
  } catch {
    if (depth > 40) return path;
    try {
      // a dangling symlink: the write would create its target
      if (lstatSync(path).isSymbolicLink()) return realOf(resolve(dirname(path), readlinkSync(path)), depth + 1);
    } catch {}
    const parent = dirname(path);
    return parent === path ? path : join(realOf(parent, depth + 1), basename(path));
  }
}

/**
 * The first protected pattern the path matches. `/…` and `~/…` patterns match
 * the whole absolute path; any other pattern matches the path's tail at any
 * depth (`.env*` protects every .env file, `.git/**` every repository's .git).
 */
export function protectedBy(path: string, patterns: readonly string[]): string | undefined {
  const parts = path.split(sep).filter(Boolean);
  return patterns.find((pattern) => {
    const p = pattern.startsWith("~/") ? join(homedir(), pattern.slice(2)) : pattern;
    const re = globRegex(isAbsolute(p) ? p.slice(1) : p);
    if (isAbsolute(p)) return re.test(parts.join("/"));
    for (let i = parts.length - 1; i >= 0; i--) if (re.test(parts.slice(i).join("/"))) return true;
    return false;
  });
}

/** `**` spans folders, `*` and `?` stay within one. */
function globRegex(pattern: string): RegExp {
  let source = "";
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!;
    if (c === "*" && pattern[i + 1] === "*") {
      const slash = pattern[i + 2] === "/";
      source += slash ? "(?:.*/)?" : ".*";
      i += slash ? 2 : 1;
    } else if (c === "*") source += "[^/]*";
    else if (c === "?") source += "[^/]";
    else source += c.replace(/[.+^${}()|[\]\\]/, "\\$&");
  }
  return new RegExp(`^${source}$`);
}

/** The change a write or edit would make, as a unified diff; undefined when it cannot be worked out (the tool will say why). */
export function changeDiff(tool: "write" | "edit", args: Record<string, unknown>, target: string, shown: string): string | undefined {
  const before = readSmall(target);
  if (tool === "write") return typeof args.content === "string" ? cap(wholeDiff(shown, before ?? "", args.content)) : undefined;
  if (before === undefined) return undefined;
  try {
    return cap(replacementDiff(shown, splitStyle(before).text, plannedEdit(args, before, shown)).diff);
  } catch {
    return undefined;
  }
}

function readSmall(path: string): string | undefined {
  try {
    if (statSync(path).size > MAX_DIFF_BASE_BYTES) return undefined;
    return readFileSync(path, "utf8");
  } catch {
    return undefined;
  }
}

/** One hunk around everything between the common first and last lines. */
function wholeDiff(path: string, before: string, after: string): string {
  const a = before === "" ? [] : before.split("\n");
  const b = after === "" ? [] : after.split("\n");
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) endA--, endB--;
  if (start === endA && start === endB) return "";
  const from = Math.max(0, start - 3);
  const toA = Math.min(a.length, endA + 3);
  const toB = Math.min(b.length, endB + 3);
  const body = [
    ...a.slice(from, start).map((l) => ` ${l}`),
    ...a.slice(start, endA).map((l) => `-${l}`),
    ...b.slice(start, endB).map((l) => `+${l}`),
    ...a.slice(endA, toA).map((l) => ` ${l}`),
  ];
  const range = (first: number, count: number) => `${count === 0 ? first : first + 1},${count}`;
  return [before === "" ? "--- /dev/null" : `--- a/${path}`, `+++ b/${path}`, `@@ -${range(from, toA - from)} +${range(from, toB - from)} @@`, ...body].join("\n");
}

function cap(diff: string): string {
  if (diff.length <= MAX_DIFF_CHARS) return diff;
  const cut = diff.lastIndexOf("\n", MAX_DIFF_CHARS);
  const kept = diff.slice(0, cut === -1 ? MAX_DIFF_CHARS : cut);
  const left = diff.slice(kept.length).split("\n").length - 1;
  return `${kept}\n[diff truncated: ${left} more lines not shown]`;
}
