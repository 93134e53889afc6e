import { mkdir, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";

/** Writes `files` (relative path → content) under `root`. */
export async function makeTree(root: string, files: Record<string, string | Uint8Array>): Promise<void> {
  for (const [rel, content] of Object.entries(files)) {
    const path = join(root, rel);
    await mkdir(dirname(path), { recursive: true });
    await writeFile(path, content);
  }
}
