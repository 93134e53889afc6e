/**
 * Loading a 20 000-entry session file: `switch_session` sent to a running
 * nova → its response (time), and nova's RSS afterwards, against a compiled
 * program that only reads the file and JSON.parses every line.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { compile, env, lineReader, median, NOVA, ratio, ROOT, TMP, rssKb } from "./lib.ts";

const ENTRIES = 20_000;

function makeSession(path: string): void {
  const lines = [JSON.stringify({ type: "session", version: 1, id: "bench-session", timestamp: new Date().toISOString(), cwd: "/w" })];
  let parent: string | null = null;
  const usage = { input: 1000, output: 200, cacheRead: 0, cacheWrite: 0, totalTokens: 1200, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } };
  for (let i = 0; i < ENTRIES; i++) {
    const id = `e${i}`;
    const kind = i % 3;
    const message =
      kind === 0
        ? { role: "user", content: `Please look at file ${i} and fix the bug in it. `.repeat(4), timestamp: i }
        : kind === 1
          ? {
              role: "assistant",
              content: [
                { type: "text", text: "Reading it now. ".repeat(10) },
                { type: "toolCall", id: `c${i}`, name: "read", arguments: { path: `src/f${i}.ts` } },
              ],
              api: "openai-chat",
              provider: "p",
              model: "m",
              usage,
              stopReason: "toolUse",
              timestamp: i,
            }
          : { role: "toolResult", toolCallId: `c${i - 1}`, toolName: "read", content: [{ type: "text", text: "const x = 1;\n".repeat(60) }], isError: false, timestamp: i };
    lines.push(JSON.stringify({ type: "message", id, parentId: parent, timestamp: new Date(i).toISOString(), message }));
    parent = id;
  }
  writeFileSync(path, lines.join("\n") + "\n");
}

async function novaLoad(file: string): Promise<{ ms: number; rssKb: number }> {
  const proc = Bun.spawn([NOVA, "--no-session"], { stdin: "pipe", stdout: "pipe", stderr: "ignore", env: env() });
  const until = lineReader(proc.stdout);
  await until((l) => l.includes('"ready"'));
  const start = performance.now();
  proc.stdin.write(JSON.stringify({ id: "s", type: "switch_session", sessionPath: file }) + "\n");
  proc.stdin.flush();
  await until((l) => l.includes('"id":"s"'));
  const ms = performance.now() - start;
  Bun.gc(true);
  const rss = rssKb(proc.pid);
  proc.stdin.end();
  await proc.exited;
  return { ms, rssKb: rss };
}

async function baselineLoad(binary: string, file: string): Promise<{ ms: number; rssKb: number }> {
  const start = performance.now();
  const proc = Bun.spawn([binary, file], { stdout: "pipe", stderr: "ignore" });
  const out = JSON.parse(await new Response(proc.stdout).text());
  await proc.exited;
  return { ms: performance.now() - start, rssKb: out.rssKb };
}

export async function benchSessionLoad() {
  mkdirSync(TMP, { recursive: true });
  const file = join(TMP, "session-20k.jsonl");
  makeSession(file);
  const baseline = await compile(`${ROOT}/bench/baseline/parse-jsonl.ts`, "baseline-parse-jsonl");
  const nova: { ms: number; rssKb: number }[] = [];
  const base: { ms: number; rssKb: number }[] = [];
  for (let i = 0; i < 5; i++) {
    nova.push(await novaLoad(file));
    base.push(await baselineLoad(baseline, file));
  }
  const m = (runs: { ms: number; rssKb: number }[], key: "ms" | "rssKb") => median(runs.map((r) => r[key]));
  return {
    entries: ENTRIES,
    "file MiB": (Bun.file(file).size / 1048576).toFixed(1),
    "nova switch_session → response ms (median of 5)": m(nova, "ms").toFixed(0),
    "baseline read + parse (whole process) ms": m(base, "ms").toFixed(0),
    "time ratio nova/baseline": ratio(m(nova, "ms"), m(base, "ms")),
    "nova RSS after load MiB": (m(nova, "rssKb") / 1024).toFixed(1),
    "baseline RSS MiB": (m(base, "rssKb") / 1024).toFixed(1),
    "RSS ratio nova/baseline": ratio(m(nova, "rssKb"), m(base, "rssKb")),
  };
}
