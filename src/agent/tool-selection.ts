/**
 * Pi's tool flags applied to nova's own tools: `--tools` (an allowlist of
 * names and `*` patterns, or a list of only +name/-name changes to the
 * default set), `--exclude-tools` (patterns removed last), `--no-tools`,
 * `--no-builtin-tools`. Tools a host registers (set_host_tools) are the
 * host's own choice and are not filtered.
 */
import { matcher } from "../core/patterns.ts";

export interface ToolSelection {
  tools?: string[];
  exclude?: string[];
  noTools?: boolean;
  noBuiltin?: boolean;
}

/** Whether a --tools list edits the default set (+name/-name) instead of replacing it. */
export function isEditList(entries: string[]): boolean {
  return entries.length > 0 && entries.every((e) => e.startsWith("+") || e.startsWith("-"));
}

export function selectTools<T extends { name: string }>(tools: T[], selection: ToolSelection | undefined): T[] {
  if (!selection) return tools;
  if (selection.noTools) return [];
  let chosen = selection.noBuiltin ? [] : tools;
  const list = selection.tools;
  if (list && isEditList(list)) {
    const add = new Set(list.filter((e) => e.startsWith("+")).map((e) => e.slice(1)));
    const remove = new Set(list.filter((e) => e.startsWith("-")).map((e) => e.slice(1)));
    chosen = tools.filter((t) => (chosen.includes(t) || add.has(t.name)) && !remove.has(t.name));
  } else if (list) {
    const tests = list.map(matcher);
    chosen = tools.filter((t) => tests.some((test) => test(t.name)));
  }
  const excluded = (selection.exclude ?? []).map(matcher);
  return chosen.filter((t) => !excluded.some((test) => test(t.name)));
}
