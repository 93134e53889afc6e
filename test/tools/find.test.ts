import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdir, mkdtemp, rm, symlink } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { findTool } from "../../src/tools/find.ts";
import type { ToolResult } from "../../src/tools/types.ts";
import { toolContext } from "./context.ts";
import { makeTree } from "./tree.ts";

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "nova-find-"));
  await makeTree(dir, {
    ".gitignore": "*.log\ndist/\n",
    "src/a.ts": "",
    "src/b.test.ts": "",
    "src/deep/c.ts": "",
    "src/deep/.ignore": "c.ts\n",
    "src/deep/d.ts": "",
    "debug.log": "",
    "dist/out.ts": "",
    "node_modules/pkg/index.ts": "",
    ".git/config.ts": "",
    "README.md": "",
  });
});
afterAll(() => rm(dir, { recursive: true, force: true }));

const run = (args: Record<string, unknown>, cwd = dir) => findTool.execute(args, toolContext(cwd));
const lines = (r: ToolResult) => (r.content[0] as { text: string }).text.split("\n");

describe("find", () => {
  test("matches names at any depth and honours .gitignore and .ignore without a git repo", async () => {
    expect(lines(await run({ pattern: "*.ts" }))).toEqual(["src/a.ts", "src/b.test.ts", "src/deep/d.ts"]);
  });

  test("a pattern with a slash matches the relative path", async () => {
    expect(lines(await run({ pattern: "src/*/*.ts" }))).toEqual(["src/deep/d.ts"]);
    expect(lines(await run({ pattern: "**/*.test.ts" }))).toEqual(["src/b.test.ts"]);
  });

  test("folders are listed with a trailing slash", async () => {
    expect(lines(await run({ pattern: "deep" }))).toEqual(["src/deep/"]);
  });

  test("searching a subfolder still applies the parent's ignore file inside the cwd", async () => {
    await makeTree(dir, { "src/trace.log": "" });
    expect(lines(await run({ pattern: "*", path: "src" }))).not.toContain("trace.log");
    expect(lines(await run({ pattern: "*", path: "src" }))).toContain("a.ts");
  });

  test("the limit caps results and says how to get more", async () => {
    const out = lines(await run({ pattern: "*.ts", limit: 2 }));
    expect(out.slice(0, 2)).toEqual(["src/a.ts", "src/b.test.ts"]);
    expect(out.at(-1)).toContain("Stopped at 2 results");
  });

  test("symlink loops end", async () => {
    const loopRoot = join(dir, "loops");
    await mkdir(join(loopRoot, "a/b"), { recursive: true });
    await symlink(loopRoot, join(loopRoot, "a/b/up"));
    await symlink(join(loopRoot, "a"), join(loopRoot, "a/b/again"));
    const outside = await mkdtemp(join(tmpdir(), "nova-find-out-"));
    await makeTree(outside, { "x.txt": "" });
    await symlink(outside, join(outside, "self"));
    await symlink(outside, join(loopRoot, "out"));
    const found = lines(await run({ pattern: "*", path: "loops" }));
    expect(found).toEqual(["a/", "a/b/", "a/b/again/", "a/b/up/", "out/", "out/self/", "out/x.txt"]);
    await rm(outside, { recursive: true, force: true });
  });

  test("no match and a missing folder are reported", async () => {
    expect(lines(await run({ pattern: "*.zzz" }))[0]).toContain("No files match");
    expect((await run({ pattern: "*", path: "nope" }).catch((e) => e)).message).toContain("does not exist");
  });
});
