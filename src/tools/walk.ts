/**
 * The folder walk behind find and grep: an explicit stack instead of recursion,
 * ignore files applied as folders are entered, `.git` and `node_modules`
 * skipped, symlinked folders followed at most once, and the event loop given a
 * turn every few milliseconds so an abort can land.
 */
import { type Dirent, readdirSync, realpathSync, statSync } from "node:fs";
import { type IgnoreLayer, ancestorLayers, isIgnored, readIgnoreLayer } from "./ignore.ts";

export interface WalkEntry {
  abs: string;
  /** relative to the walk root, `/`-separated */
  rel: string;
  name: string;
  isDir: boolean;
}

export interface WalkOptions {
  /** the session cwd: outside a git repository, ignore files up to here apply */
  cwd: string;
  signal?: AbortSignal;
}

const ALWAYS_SKIPPED = new Set([".git", "node_modules"]);
const SLICE_MS = 16;

interface Pending {
  abs: string;
  rel: string;
  layers: IgnoreLayer[];
}

/** Calls `visit` for every entry under `root` (not `root` itself); `visit` returns true to stop early. */
// biome-ignore lint/suspicious/noConfusingVoidType: a visitor that never stops early returns nothing
export async function walkTree(root: string, opts: WalkOptions, visit: (entry: WalkEntry) => boolean | void): Promise<void> {
  const rootReal = safeRealpath(root) ?? root;
  const followed = new Set<string>([rootReal]);
  const baseLayers = ancestorLayers(root, opts.cwd);
  const stack: Pending[] = [{ abs: root, rel: "", layers: withLayer(baseLayers, root, "") }];
  let sliceStart = performance.now();

  while (stack.length > 0) {
    if (performance.now() - sliceStart > SLICE_MS) {
      await new Promise((resolve) => setImmediate(resolve));
      sliceStart = performance.now();
    }
    opts.signal?.throwIfAborted();
    const { abs, rel, layers } = stack.pop()!;
    let entries: Dirent[];
    try {
      entries = readdirSync(abs, { withFileTypes: true });
    } catch {
      continue; // unreadable folders are skipped, as find and rg do
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    const subdirs: Pending[] = [];
    for (const entry of entries) {
      const name = entry.name;
      // abs is already normal and a name holds no "/": plain concatenation is join's result, without its cost per entry
      const childAbs = abs.endsWith("/") ? abs + name : `${abs}/${name}`;
      const childRel = rel === "" ? name : `${rel}/${name}`;
      let isDir = entry.isDirectory();
      if (entry.isSymbolicLink()) {
        const target = followableTarget(childAbs, rootReal, followed);
        if (target === "broken") continue;
        isDir = target !== "file";
        if (target === "dir-seen") {
          if (isIgnored(layers, childRel, true)) continue;
          if (visit({ abs: childAbs, rel: childRel, name, isDir: true })) return;
          continue;
        }
      }
      if (isDir && ALWAYS_SKIPPED.has(name)) continue;
      if (isIgnored(layers, childRel, isDir)) continue;
      if (visit({ abs: childAbs, rel: childRel, name, isDir })) return;
      if (isDir) subdirs.push({ abs: childAbs, rel: childRel, layers: withLayer(layers, childAbs, `${childRel}/`) });
    }
    for (let i = subdirs.length - 1; i >= 0; i--) stack.push(subdirs[i]!);
  }
}

function withLayer(layers: IgnoreLayer[], dir: string, strip: string): IgnoreLayer[] {
  const layer = readIgnoreLayer(dir, strip);
  return layer ? [...layers, layer] : layers;
}

/**
 * What a symlink leads to. A folder is followed only the first time its real
 * path is reached, and never when it lies inside the root (the walk sees it
 * anyway) or contains the root (that would walk the root again): this is what
 * makes link loops finite.
 */
function followableTarget(abs: string, rootReal: string, followed: Set<string>): "file" | "dir" | "dir-seen" | "broken" {
  let isDir: boolean;
  try {
    isDir = statSync(abs).isDirectory();
  } catch {
    return "broken";
  }
  if (!isDir) return "file";
  const real = safeRealpath(abs);
  if (!real) return "dir-seen";
  const related = real === rootReal || real.startsWith(`${rootReal}/`) || rootReal.startsWith(real === "/" ? "/" : `${real}/`);
  if (related || followed.has(real)) return "dir-seen";
  followed.add(real);
  return "dir";
}

function safeRealpath(path: string): string | undefined {
  try {
    return realpathSync(path);
  } catch {
    return undefined;
  }
}
