/**
 * Finds the instruction files (AGENTS.md, or CLAUDE.md as a fallback) that the
 * system prompt carries: the user's own from NOVA_HOME first, then the ones from
 * the repository root down to the cwd, so that the closest, most specific file
 * comes last and reads as the final word.
 */
import { stat } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";

export interface ContextFile {
  path: string;
  content: string;
}

/** Large enough for any real instruction file, small enough not to swamp the context. */
export const CONTEXT_FILE_MAX_BYTES = 64 * 1024;

const NAMES = ["AGENTS.md", "CLAUDE.md"];

export async function loadContextFiles(input: { cwd: string; novaHome: string }): Promise<ContextFile[]> {
  const dirs = [resolve(input.novaHome), ...(await dirsFromRootToCwd(resolve(input.cwd)))];
  const seen = new Set<string>();
  const files: ContextFile[] = [];
  for (const dir of dirs) {
    if (seen.has(dir)) continue;
    seen.add(dir);
    const file = await readFirst(dir);
    if (file) files.push(file);
  }
  return files;
}

/** The repository root (nearest ancestor holding `.git`) down to cwd; just cwd outside a repository. */
async function dirsFromRootToCwd(cwd: string): Promise<string[]> {
  const chain: string[] = [];
  let dir = cwd;
  for (;;) {
    chain.push(dir);
    if (await exists(join(dir, ".git"))) return chain.reverse();
    const parent = dirname(dir);
    if (parent === dir) return [cwd];
    dir = parent;
  }
}

/** AGENTS.md wins; CLAUDE.md is read only where that folder has no AGENTS.md. */
async function readFirst(dir: string): Promise<ContextFile | undefined> {
  for (const name of NAMES) {
    const path = join(dir, name);
    if (!(await exists(path))) continue;
    const content = await readCapped(path);
    return content === undefined ? undefined : { path, content };
  }
  return undefined;
}

/** Unreadable files are skipped silently: a missing permission must not stop the agent. */
async function readCapped(path: string): Promise<string | undefined> {
  try {
    const file = Bun.file(path);
    if (file.size <= CONTEXT_FILE_MAX_BYTES) return await file.text();
    const head = await file.slice(0, CONTEXT_FILE_MAX_BYTES).text();
    return `${head}\n\n[${path} truncated: showing the first ${CONTEXT_FILE_MAX_BYTES} of ${file.size} bytes]`;
  } catch {
    return undefined;
  }
}

async function exists(path: string): Promise<boolean> {
  try {
    await stat(path);
    return true;
  } catch {
    return false;
  }
}
