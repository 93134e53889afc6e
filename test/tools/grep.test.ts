import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { mkdtemp, rm, truncate } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { grepTool } from "../../src/tools/grep.ts";
import type { ToolResult } from "../../src/tools/types.ts";
import { toolContext } from "./context.ts";
import { makeTree } from "./tree.ts";

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "nova-grep-"));
  await makeTree(dir, {
    ".gitignore": "ignored/\n",
    "src/a.ts": "const alpha = 1;\nconst beta = 2;\nexport { alpha };\n",
    "src/b.js": "function Alpha() {}\n",
    "src/crlf.txt": "one\r\nmatch here\r\nthree\r\n",
    "ignored/x.ts": "alpha\n",
    "bin.dat": new Uint8Array([0x61, 0x6c, 0x70, 0x68, 0x61, 0, 1, 2]),
    "ctx.txt": ["l1", "l2", "hit 3", "l4", "hit 5", "l6", "l7", "l8", "l9", "hit 10", "l11"].join("\n"),
  });
});
afterAll(() => rm(dir, { recursive: true, force: true }));

const run = (args: Record<string, unknown>) => grepTool.execute(args, toolContext(dir));
const text = (r: ToolResult) => (r.content[0] as { text: string }).text;

describe("grep", () => {
  test("finds regex matches with path and line, skipping ignored and binary files", async () => {
    expect(text(await run({ pattern: "alpha" }))).toBe("src/a.ts:1: const alpha = 1;\nsrc/a.ts:3: export { alpha };");
  });

  test("ignoreCase, literal and glob", async () => {
    expect(text(await run({ pattern: "alpha", ignoreCase: true, glob: "*.js" }))).toBe("src/b.js:1: function Alpha() {}");
    expect(text(await run({ pattern: "Alpha()", literal: true }))).toBe("src/b.js:1: function Alpha() {}");
    expect(text(await run({ pattern: "alpha", glob: "src/**/*.ts" }))).toContain("src/a.ts:1:");
  });

  test("anchors work per line, CRLF included", async () => {
    expect(text(await run({ pattern: "^match here$" }))).toBe("src/crlf.txt:2: match here");
  });

  test("context lines, merged windows and separators", async () => {
    expect(text(await run({ pattern: "^hit", path: "ctx.txt", context: 1 }))).toBe(
      ["ctx.txt-2- l2", "ctx.txt:3: hit 3", "ctx.txt-4- l4", "ctx.txt:5: hit 5", "ctx.txt-6- l6", "--", "ctx.txt-9- l9", "ctx.txt:10: hit 10", "ctx.txt-11- l11"].join("\n"),
    );
  });

  test("the limit stops the search and says so", async () => {
    const out = text(await run({ pattern: "^hit", path: "ctx.txt", limit: 2 }));
    expect(out.split("\n").slice(0, 2)).toEqual(["ctx.txt:3: hit 3", "ctx.txt:5: hit 5"]);
    expect(out).toContain("Stopped at 2 matches");
    expect(text(await run({ pattern: "^hit", path: "ctx.txt", limit: 3 }))).not.toContain("Stopped");
  });

  test("files over 100 MB are left out and named", async () => {
    await makeTree(dir, { "huge2/small.txt": "findme\n", "huge2/big.log": "findme\n" });
    await truncate(join(dir, "huge2/big.log"), 101 * 1024 * 1024);
    const out = text(await run({ pattern: "findme", path: "huge2" }));
    expect(out).toBe("small.txt:1: findme\n\n[Not searched, over 100.0 MB: big.log (101.0 MB)]");
  });

  test("a bad regex is an error that suggests literal", async () => {
    expect((await run({ pattern: "(unclosed" }).catch((e) => e)).message).toContain("literal: true");
  });

  test("long lines are cut", async () => {
    await makeTree(dir, { "long/line.txt": `needle${"x".repeat(5000)}\n` });
    const out = text(await run({ pattern: "needle", path: "long" }));
    expect(out.length).toBeLessThan(700);
    expect(out).toContain("line cut at 500");
  });

  test("a 200k-line file is searched quickly and numbered right", async () => {
    const lines = Array.from({ length: 200_000 }, (_, i) => (i % 50_000 === 49_999 ? `TARGET ${i + 1}` : `filler line ${i + 1} lorem ipsum`));
    await makeTree(dir, { "huge/big.txt": lines.join("\n") });
    const started = performance.now();
    const out = text(await run({ pattern: "TARGET \\d+", path: "huge" }));
    const elapsed = performance.now() - started;
    expect(out.split("\n")).toEqual([50_000, 100_000, 150_000, 200_000].map((n) => `big.txt:${n}: TARGET ${n}`));
    expect(elapsed).toBeLessThan(1000);
  });

  test("a 3000-file tree is walked quickly", async () => {
    const tree = join(dir, "wide");
    for (let d = 0; d < 30; d++) {
      mkdirSync(join(tree, `d${d}`), { recursive: true });
      for (let f = 0; f < 100; f++) writeFileSync(join(tree, `d${d}`, `f${f}.txt`), d === 17 && f === 7 ? "the needle\n" : "hay\n");
    }
    const started = performance.now();
    const out = text(await run({ pattern: "needle", path: "wide" }));
    expect(out).toBe("d17/f7.txt:1: the needle");
    expect(performance.now() - started).toBeLessThan(1500);
  });

  test("past the worker threshold: a limit keeps the first matches in walk order, and an abort ends the search", async () => {
    const tree = join(dir, "many");
    for (let d = 0; d < 12; d++) {
      mkdirSync(join(tree, `d${String(d).padStart(2, "0")}`), { recursive: true });
      for (let f = 0; f < 250; f++) writeFileSync(join(tree, `d${String(d).padStart(2, "0")}`, `f${String(f).padStart(3, "0")}.txt`), f % 3 === 0 ? `x\nmatch ${d}/${f}\n` : "x\n");
    }
    const all = text(await run({ pattern: "match", path: "many", limit: 100000 })).split("\n");
    expect(all.length).toBe(1008);
    expect(all).toEqual([...all].sort());
    // a limit that ends inside what the workers read (past file 2000): the same first lines, then the note
    const limited = text(await run({ pattern: "match", path: "many", limit: 800 })).split("\n");
    expect(limited.slice(0, 800)).toEqual(all.slice(0, 800));
    expect(limited.at(-1)).toContain("[Stopped at 800 matches");
    const controller = new AbortController();
    const search = grepTool.execute({ pattern: "match", path: "many", limit: 100000 }, toolContext(dir, { signal: controller.signal }));
    controller.abort();
    await expect(search).rejects.toThrow();
  });
});
