/**
 * nova's grep against ripgrep on the same tree: a git repository with
 * .gitignore rules (negated, rooted, folder-only, nested), binary files, long
 * lines, CRLF and multi-byte text, large enough that the search runs on worker
 * threads (tools/grep-parallel.ts). The same files and lines must come back,
 * through the real process, from source and from the compiled executable.
 */
import { beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { PARALLEL_AFTER } from "../../src/tools/grep-parallel.ts";
import { type Frame, startNova, tempDir } from "../support/nova.ts";
import { BINARY } from "../support/targets.ts";

const rg = Bun.which("rg");
const SMALL_FILES = PARALLEL_AFTER + 1500;

let tree: string;
beforeAll(() => {
  tree = tempDir("nova-grep-rg-");
  const put = (rel: string, body: string | Uint8Array) => {
    mkdirSync(join(tree, rel, ".."), { recursive: true });
    writeFileSync(join(tree, rel), body);
  };
  for (let i = 0; i < SMALL_FILES; i++) put(`src/m${i % 40}/n${i % 7}/f${i}.ts`, `const a = ${i};\n${i % 9 === 0 ? `// alpha needle ${i}\n` : "\n"}export {};\n`);
  put(".gitignore", "*.log\n!keep.log\nbuild/\n/rootonly.txt\n");
  put("x.log", "needle in an ignored log\n");
  put("keep.log", "needle kept by a negation\n");
  put("build/out.txt", "needle in an ignored folder\n");
  put("rootonly.txt", "needle ignored at the root only\n");
  put("deep/rootonly.txt", "needle not ignored below the root\n");
  put("deep/.gitignore", "secret*\n");
  put("deep/secret.txt", "needle behind a nested rule\n");
  put("deep/public.txt", "no\nNeedle with a capital\nneedle\n");
  put(".hidden/h.txt", "needle in a hidden folder\n");
  put("bin/blob.dat", new Uint8Array([0, 1, 2, ...Buffer.from("needle\n")]));
  put("bin/late-nul.dat", Buffer.concat([Buffer.from("needle before\n"), new Uint8Array([0]), Buffer.from("needle after\n")]));
  put("long.txt", `${"x".repeat(30000)} needle at the end of a long line\nneedle\n`);
  put("crlf.txt", "one\r\nneedle\r\nthree needle\r\n");
  put("utf8.txt", "é ü ⚡ needle 中文\nnéedle\n");
  Bun.spawnSync(["git", "init", "-q"], { cwd: tree });
});

/** `path:line` of every line of an output, sorted; `format` captures the path and the line number */
function matchLines(output: string, format: RegExp): string[] {
  return output
    .split("\n")
    .filter(Boolean)
    .map((line) => {
      const [, path, number] = line.match(format)!;
      return `${path}:${number}`;
    })
    .sort();
}

/** `path:line` of every match, as ripgrep prints them */
function ripgrep(args: string[]): string[] {
  const out = Bun.spawnSync([rg!, "--hidden", "-g", "!.git", "-n", "--no-heading", "--no-messages", ...args], { cwd: tree, stdout: "pipe" });
  return matchLines(out.stdout.toString(), /^(.+?):(\d+):/);
}

const searches = [
  { name: "literal", arguments: { pattern: "needle", literal: true }, rg: ["-F", "needle"] },
  { name: "regex", arguments: { pattern: "alpha ne+dle \\d+$" }, rg: ["alpha ne+dle \\d+$"] },
  { name: "ignore case", arguments: { pattern: "needle", ignoreCase: true }, rg: ["-i", "needle"] },
];

const script = [...searches.map((s) => ({ match: `^search ${s.name}$`, reply: [{ tool: "grep", arguments: { ...s.arguments, limit: 100000 } }] })), { reply: [{ text: "done" }] }];

async function novaSearches(binary: string | undefined): Promise<{ results: string[][]; stderr: string }> {
  const home = tempDir("nova-home-");
  writeFileSync(join(home, "script.yml"), JSON.stringify(script));
  const config = { defaultModel: "ci/replay", providers: { ci: { api: "scripted", script: join(home, "script.yml"), models: [{ id: "replay" }] } } };
  const nova = await startNova({ cwd: tree, home, config, binary, args: ["--no-session"] });
  const results: string[][] = [];
  for (const s of searches) {
    const from = nova.frames.length;
    nova.send({ type: "prompt", message: `search ${s.name}` });
    const end = await nova.waitFor((f: Frame) => f.type === "tool_execution_end", from, 60000);
    await nova.waitFor((f: Frame) => f.type === "agent_settled", from, 60000);
    const text: string = end.result.content[0].text;
    expect(end.result.details.truncated).toBe(false);
    results.push(matchLines(text, /^(.+?):(\d+): /));
  }
  await nova.stop();
  return { results, stderr: nova.stderr };
}

describe("grep against ripgrep", () => {
  test("ripgrep is installed (.ci/run installs it)", () => {
    expect(rg).toBeTruthy();
  });

  for (const [label, binary] of [
    ["from source", undefined],
    ["the compiled executable", BINARY],
  ] as const) {
    test(`${label}: the same files and lines as ripgrep, on worker threads`, async () => {
      const { results, stderr } = await novaSearches(binary);
      for (const [i, s] of searches.entries()) {
        const expected = ripgrep(s.rg);
        expect(expected.length).toBeGreaterThan(10);
        expect(results[i]).toEqual(expected);
      }
      // the tree was searched by worker threads, and none of them failed
      expect(stderr).not.toContain("worker thread failed");
    }, 120000);
  }
});
