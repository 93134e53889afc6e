/**
 * The cheap stat pass behind checkpoints: every file, symlink and folder under
 * the cwd with its size, mtime, mode and inode, honouring `.gitignore` and
 * `.ignore` the way grep and find do, never entering `.git` or
 * `node_modules`. Two scans that are equal mean nothing changed, so nothing
 * is read or copied.
 */
import { type Dirent, lstatSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { type IgnoreLayer, ancestorLayers, isIgnored, readIgnoreLayer } from "../tools/ignore.ts";

export type Kind = "file" | "link" | "dir";

export interface Stat {
  kind: Kind;
  size: number;
  mtimeMs: number;
  ctimeMs: number;
  ino: number;
  /** permission bits */
  mode: number;
}

/** `/`-separated path relative to the cwd → its stat. */
export type Scan = Map<string, Stat>;

const SKIPPED = new Set([".git", "node_modules"]);

export function scanTree(root: string): Scan {
  const out: Scan = new Map();
  const stack: { abs: string; rel: string; layers: IgnoreLayer[] }[] = [{ abs: root, rel: "", layers: withLayer(ancestorLayers(root, root), root, "") }];
  while (stack.length > 0) {
    const dir = stack.pop()!;
    let entries: Dirent[];
    try {
      entries = readdirSync(dir.abs, { withFileTypes: true });
    } catch {
      continue;
    }
    for (const e of entries) {
      if (SKIPPED.has(e.name)) continue;
      const rel = dir.rel ? `${dir.rel}/${e.name}` : e.name;
      const isDir = e.isDirectory();
      if (isIgnored(dir.layers, rel, isDir)) continue;
      const abs = join(dir.abs, e.name);
      let s;
      try {
        s = lstatSync(abs);
      } catch {
        continue;
      }
      const kind: Kind = s.isSymbolicLink() ? "link" : s.isDirectory() ? "dir" : "file";
      if (!s.isSymbolicLink() && !s.isDirectory() && !s.isFile()) continue;
      out.set(rel, { kind, size: s.size, mtimeMs: s.mtimeMs, ctimeMs: s.ctimeMs, ino: s.ino, mode: s.mode & 0o777 });
      if (kind === "dir") stack.push({ abs, rel, layers: withLayer(dir.layers, abs, `${rel}/`) });
    }
  }
  return out;
}

function withLayer(layers: IgnoreLayer[], dir: string, strip: string): IgnoreLayer[] {
  const own = readIgnoreLayer(dir, strip);
  return own ? [...layers, own] : layers;
}

export function sameStat(a: Stat | undefined, b: Stat | undefined): boolean {
  if (!a || !b) return a === b;
  return a.kind === b.kind && a.size === b.size && a.mtimeMs === b.mtimeMs && a.ctimeMs === b.ctimeMs && a.ino === b.ino && a.mode === b.mode;
}
