/**
 * Checkpoint overhead per tool batch on a generated 10 000-file tree: the
 * time beginBatch + endBatch add around a batch that changes nothing, and
 * around one that changes 10 files (the writes themselves not counted).
 * Goals on this 2-core machine: ≤ 30 ms unchanged, ≤ 80 ms changed. The
 * baseline of the same run is one plain walk of the tree (readdir + lstat),
 * the least a stat pass can cost.
 */
import { existsSync, lstatSync, mkdirSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { median, ratio, TMP } from "./lib.ts";
import { Checkpoints } from "../src/checkpoints/index.ts";

const FILES = 10_000;
const RUNS = 15;

function makeTree(root: string): void {
  if (existsSync(join(root, ".done"))) return;
  for (let i = 0; i < FILES; i++) {
    const dir = join(root, `d${i % 50}`, `e${Math.floor(i / 50) % 20}`);
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, `f${i}.ts`), `export const v${i} = ${i};\n`.repeat(20));
  }
  writeFileSync(join(root, ".done"), "");
}

function plainWalk(root: string): number {
  let n = 0;
  const stack = [root];
  while (stack.length > 0) {
    const dir = stack.pop()!;
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const p = join(dir, e.name);
      lstatSync(p);
      n++;
      if (e.isDirectory()) stack.push(p);
    }
  }
  return n;
}

export async function benchCheckpoints(): Promise<Record<string, unknown>> {
  const root = join(TMP, "checkpoint-tree");
  makeTree(root);
  const home = join(TMP, "checkpoint-home");
  rmSync(home, { recursive: true, force: true });
  let n = 0;
  const cp = new Checkpoints({
    cwd: root,
    novaHome: home,
    settings: { enabled: true, maxFileBytes: 10 << 20, maxFiles: 50_000, maxAgeDays: 14, maxBytes: 1 << 30 },
    sessionId: () => "bench",
    entryTime: () => 0,
  });
  const batch = async (change: boolean, prefetched = false) => {
    if (prefetched) {
      // the before-scan runs while the model streams the bash call: not waited for by the batch
      cp.prefetch();
      await (cp as unknown as { early: Promise<unknown> }).early;
    }
    const t0 = performance.now();
    await cp.beginBatch();
    const t1 = performance.now();
    if (change) for (let i = 0; i < 10; i++) writeFileSync(join(root, `d${i}`, "e0", `f${i}.ts`), `changed ${n++}\n`);
    const t2 = performance.now();
    await cp.endBatch({ entryId: `e${n}`, turnIndex: 0 });
    return t1 - t0 + (performance.now() - t2);
  };
  const writes = async () => {
    const paths = Array.from({ length: 10 }, (_, i) => `d${i}/e1/f${50 + i}.ts`);
    const t0 = performance.now();
    await cp.beginBatch(paths);
    const t1 = performance.now();
    for (const p of paths) writeFileSync(join(root, p), `written ${n++}\n`);
    const t2 = performance.now();
    await cp.endBatch({ entryId: `w${n}`, turnIndex: 0 });
    return t1 - t0 + (performance.now() - t2);
  };
  const first = await batch(false);
  const walk: number[] = [];
  const unchanged: number[] = [];
  const changed: number[] = [];
  const unchangedEarly: number[] = [];
  const changedEarly: number[] = [];
  const written: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const t = performance.now();
    plainWalk(root);
    walk.push(performance.now() - t);
    unchanged.push(await batch(false));
    changed.push(await batch(true));
    unchangedEarly.push(await batch(false, true));
    changedEarly.push(await batch(true, true));
    written.push(await writes());
  }
  const w = median(walk);
  const u = median(unchanged);
  const c = median(changed);
  const ue = median(unchangedEarly);
  const ce = median(changedEarly);
  return {
    "first batch (reads and stores the whole tree, ms)": first.toFixed(1),
    "plain walk of the tree (baseline, ms)": w.toFixed(1),
    "bash batch, nothing changed (ms, goal <= 30)": u.toFixed(1),
    "bash batch, 10 files changed (ms, goal <= 80)": c.toFixed(1),
    "bash batch, before-scan overlapped with the stream, nothing changed (ms)": ue.toFixed(1),
    "bash batch, before-scan overlapped with the stream, 10 files changed (ms)": ce.toFixed(1),
    "write/edit batch of 10 files (no scan, ms)": median(written).toFixed(1),
    "unchanged / plain walk": ratio(u, w),
    "changed / plain walk": ratio(c, w),
    "overlapped unchanged / plain walk": ratio(ue, w),
    "overlapped changed / plain walk": ratio(ce, w),
  };
}
