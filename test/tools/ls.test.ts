import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtemp, rm, symlink } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { lsTool } from "../../src/tools/ls.ts";
import type { ToolResult } from "../../src/tools/types.ts";
import { toolContext } from "./context.ts";
import { makeTree } from "./tree.ts";

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "nova-ls-"));
  await makeTree(dir, { "b.txt": "", "A.md": "", ".hidden": "", "sub/c.txt": "" });
  await symlink(join(dir, "sub"), join(dir, "link"));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

const run = (args: Record<string, unknown>) => lsTool.execute(args, toolContext(dir));
const text = (r: ToolResult) => (r.content[0] as { text: string }).text;

describe("ls", () => {
  test("lists dotfiles, sorts case-insensitively, marks folders and folder links", async () => {
    expect(text(await run({}))).toBe(".hidden\nA.md\nb.txt\nlink/\nsub/");
  });

  test("the limit says how many more there are", async () => {
    expect(text(await run({ limit: 2 }))).toBe(".hidden\nA.md\n\n[3 more entries; use limit=5 to see all.]");
  });

  test("a file or a missing path is an error", async () => {
    expect((await run({ path: "b.txt" }).catch((e) => e)).message).toContain("not a folder");
    expect((await run({ path: "zzz" }).catch((e) => e)).message).toContain("does not exist");
  });
});
