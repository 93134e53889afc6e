/**
 * The grep tool over a generated 100k-file tree, against ripgrep when it is
 * installed (else `grep -r`), searching for a needle that only a few files
 * hold, so both sides read the whole tree. Median of 3 alternating runs.
 */
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { median, ratio, TMP } from "./lib.ts";
import { grepTool } from "../src/tools/grep.ts";

const FILES = 100_000;
const NEEDLE = "zq_needle_xj";

function makeTree(root: string): void {
  if (existsSync(join(root, ".done"))) return;
  const line = "const value = compute(alpha, beta) + other.thing; // filler text\n";
  for (let i = 0; i < FILES; i++) {
    const dir = join(root, `d${i % 100}`, `e${Math.floor(i / 100) % 50}`);
    if (i < 5000) mkdirSync(dir, { recursive: true });
    const body = line.repeat(20) + (i % 10000 === 0 ? `found ${NEEDLE}\n` : "");
    writeFileSync(join(dir, `f${i}.ts`), body);
  }
  writeFileSync(join(root, ".done"), "");
}

async function timeNova(root: string): Promise<{ ms: number; matches: number }> {
  const start = performance.now();
  const result = await grepTool.execute({ pattern: NEEDLE, literal: true, limit: 1000 }, { cwd: root, signal: new AbortController().signal, onUpdate() {}, hasUI: false });
  const text = result.content.map((c) => (c.type === "text" ? c.text : "")).join("");
  return { ms: performance.now() - start, matches: text.split("\n").filter((l) => l.includes(NEEDLE)).length };
}

function timeExternal(cmd: string[], root: string): { ms: number; matches: number } {
  const start = performance.now();
  const out = Bun.spawnSync(cmd, { cwd: root, stdout: "pipe", stderr: "ignore" });
  return {
    ms: performance.now() - start,
    matches: out.stdout
      .toString()
      .split("\n")
      .filter((l) => l.includes(NEEDLE)).length,
  };
}

export async function benchGrep() {
  const root = join(TMP, "grep-tree");
  mkdirSync(root, { recursive: true });
  makeTree(root);
  const rg = Bun.which("rg");
  const baselineCmd = rg ? [rg, "-n", "--no-heading", "-F", NEEDLE, "."] : ["grep", "-rnF", NEEDLE, "."];
  const novaMs: number[] = [];
  const baseMs: number[] = [];
  let matches = { nova: 0, base: 0 };
  for (let i = 0; i < 3; i++) {
    const n = await timeNova(root);
    const b = timeExternal(baselineCmd, root);
    novaMs.push(n.ms);
    baseMs.push(b.ms);
    matches = { nova: n.matches, base: b.matches };
  }
  if (matches.nova !== matches.base) throw new Error(`match counts differ: nova ${matches.nova}, baseline ${matches.base}`);
  return {
    files: FILES,
    baseline: rg ? "ripgrep" : "grep -r",
    matches: matches.nova,
    "nova grep ms (median of 3)": median(novaMs).toFixed(0),
    "baseline ms (median of 3)": median(baseMs).toFixed(0),
    "ratio nova/baseline": ratio(median(novaMs), median(baseMs)),
  };
}
