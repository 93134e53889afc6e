import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { editTool } from "../../src/tools/edit.ts";
import { ToolError } from "../../src/tools/types.ts";
import { toolContext } from "./context.ts";

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "nova-edit-"));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

async function fileWith(name: string, content: string): Promise<string> {
  const path = join(dir, name);
  await writeFile(path, content);
  return path;
}

const run = (args: Record<string, unknown>) => editTool.execute(args, toolContext(dir));

describe("edit", () => {
  test("replaces a unique match and returns a unified diff", async () => {
    const path = await fileWith("one.txt", "alpha\nbeta\ngamma\ndelta\n");
    const result = await run({ path: "one.txt", oldText: "beta", newText: "BETA" });
    expect(await readFile(path, "utf8")).toBe("alpha\nBETA\ngamma\ndelta\n");
    const details = result.details as { diff: string; firstChangedLine: number };
    expect(details.diff).toBe(["--- a/one.txt", "+++ b/one.txt", "@@ -1,4 +1,4 @@", " alpha", "-beta", "+BETA", " gamma", " delta"].join("\n"));
    expect(details.firstChangedLine).toBe(2);
  });

  test("0 matches fails and leaves the file alone", async () => {
    const path = await fileWith("zero.txt", "a\nb\n");
    const err = await run({ path: "zero.txt", oldText: "c", newText: "d" }).catch((e) => e);
    expect(err).toBeInstanceOf(ToolError);
    expect(err.message).toContain("matched 0 times");
    expect(await readFile(path, "utf8")).toBe("a\nb\n");
  });

  test("2 matches fails saying how many", async () => {
    const path = await fileWith("two.txt", "x = 1\nx = 1\n");
    const err = await run({ path: "two.txt", oldText: "x = 1", newText: "x = 2" }).catch((e) => e);
    expect(err.message).toContain("matched 2 times");
    expect(await readFile(path, "utf8")).toBe("x = 1\nx = 1\n");
  });

  test("several edits apply together, or none when one fails", async () => {
    const path = await fileWith("multi.txt", "one\ntwo\nthree\n");
    const bad = await run({
      path: "multi.txt",
      edits: [
        { oldText: "one", newText: "1" },
        { oldText: "four", newText: "4" },
      ],
    }).catch((e) => e);
    expect(bad.message).toContain("edits[1].oldText matched 0 times");
    expect(await readFile(path, "utf8")).toBe("one\ntwo\nthree\n");

    await run({
      path: "multi.txt",
      edits: [
        { oldText: "three", newText: "3" },
        { oldText: "one", newText: "1" },
      ],
    });
    expect(await readFile(path, "utf8")).toBe("1\ntwo\n3\n");
  });

  test("overlapping edits are refused", async () => {
    await fileWith("overlap.txt", "abcdef\n");
    const err = await run({
      path: "overlap.txt",
      edits: [
        { oldText: "abcd", newText: "x" },
        { oldText: "cdef", newText: "y" },
      ],
    }).catch((e) => e);
    expect(err.message).toContain("overlap");
  });

  test("CRLF files keep CRLF; multi-line oldText matches with LF", async () => {
    const path = await fileWith("crlf.txt", "first\r\nsecond\r\nthird\r\n");
    await run({ path: "crlf.txt", oldText: "first\nsecond", newText: "1st\n2nd\nextra" });
    expect(await readFile(path, "utf8")).toBe("1st\r\n2nd\r\nextra\r\nthird\r\n");
  });

  test("a UTF-8 BOM is kept and does not block a match at the start", async () => {
    const path = await fileWith("bom.txt", "\uFEFFhead\nbody\n");
    await run({ path: "bom.txt", oldText: "head", newText: "HEAD" });
    const bytes = await readFile(path);
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(bytes.subarray(3).toString("utf8")).toBe("HEAD\nbody\n");
  });

  test("newText with $ patterns is inserted literally", async () => {
    const path = await fileWith("dollar.txt", "price\n");
    await run({ path: "dollar.txt", oldText: "price", newText: "$& $1 $$" });
    expect(await readFile(path, "utf8")).toBe("$& $1 $$\n");
  });

  test("missing file and bad arguments name the problem", async () => {
    expect((await run({ path: "nope.txt", oldText: "a", newText: "b" }).catch((e) => e)).message).toContain("does not exist");
    expect((await run({ path: "x.txt", oldText: "a" }).catch((e) => e)).message).toContain("newText is missing");
    expect((await run({ oldText: "a", newText: "b" }).catch((e) => e)).message).toContain("path");
  });

  test("diff of far-apart edits has two hunks with correct ranges", async () => {
    const lines = Array.from({ length: 30 }, (_, i) => `line ${i + 1}`);
    await fileWith("far.txt", `${lines.join("\n")}\n`);
    const result = await run({
      path: "far.txt",
      edits: [
        { oldText: "line 2\n", newText: "" },
        { oldText: "line 25\n", newText: "line 25\nline 25b\n" },
      ],
    });
    const diff = (result.details as { diff: string }).diff.split("\n");
    expect(diff.filter((l) => l.startsWith("@@"))).toEqual(["@@ -1,5 +1,4 @@", "@@ -23,6 +22,7 @@"]);
    expect(diff).toContain("-line 2");
    expect(diff).toContain("+line 25b");
  });
});
