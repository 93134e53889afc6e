/** Where a path the model wrote points on disk. */
import type { Stats } from "node:fs";
import { stat } from "node:fs/promises";
import { homedir } from "node:os";
import { isAbsolute, resolve } from "node:path";
import { ToolError } from "./types.ts";

/** Relative paths resolve against the session cwd; `~` means the home folder; a leading `@` (a mention) is dropped. */
export function resolvePath(cwd: string, path: string): string {
  const p = path.startsWith("@") ? path.slice(1) : path;
  if (p === "~") return homedir();
  if (p.startsWith("~/")) return resolve(homedir(), p.slice(2));
  return isAbsolute(p) ? resolve(p) : resolve(cwd, p);
}

/** stat that fails as a ToolError saying what is wrong with the path, in the model's own spelling of it. */
export async function statPath(tool: string, shown: string, path: string): Promise<Stats> {
  try {
    return await stat(path);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === "ENOENT") throw new ToolError(`${tool}: ${shown} does not exist (resolved to ${path})`);
    if (code === "EACCES") throw new ToolError(`${tool}: permission denied reading ${shown}`);
    throw new ToolError(`${tool}: cannot access ${shown}: ${(err as Error).message}`);
  }
}
