import type { ToolContext } from "../../src/tools/types.ts";

/** A tool context for tests: a cwd, a live signal and updates collected into `updates`. */
export function toolContext(cwd: string, extra: Partial<ToolContext> = {}): ToolContext & { updates: unknown[] } {
  const updates: unknown[] = [];
  return {
    cwd,
    signal: new AbortController().signal,
    onUpdate: (partial) => updates.push(partial),
    hasUI: true,
    updates,
    ...extra,
  };
}
