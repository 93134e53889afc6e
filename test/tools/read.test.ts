import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtemp, open, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { readTool } from "../../src/tools/read.ts";
import type { ToolResult } from "../../src/tools/types.ts";
import { toolContext } from "./context.ts";

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "nova-read-"));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

const run = (args: Record<string, unknown>) => readTool.execute(args, toolContext(dir));
const text = (r: ToolResult) => (r.content[0] as { text: string }).text;

describe("read", () => {
  test("numbers lines from 1 and shows the whole small file", async () => {
    await writeFile(join(dir, "small.txt"), "a\nb\nc\n");
    expect(text(await run({ path: "small.txt" }))).toBe("1\ta\n2\tb\n3\tc");
  });

  test("offset and limit pick a window and say how to continue", async () => {
    await writeFile(join(dir, "ten.txt"), Array.from({ length: 10 }, (_, i) => `L${i + 1}`).join("\n"));
    const out = text(await run({ path: "ten.txt", offset: 9, limit: 1 }));
    expect(out).toBe("9\tL9\n\n[Showing lines 9-9 of 10. Use offset=10 to continue.]");
    expect(text(await run({ path: "ten.txt", offset: 10 }))).toBe("10\tL10");
  });

  test("offset past the end is an error naming the line count", async () => {
    await writeFile(join(dir, "short.txt"), "x\n");
    const err = await run({ path: "short.txt", offset: 5 }).catch((e) => e);
    expect(err.message).toContain("offset 5 is beyond the end");
    expect(err.message).toContain("1 lines");
  });

  test("CRLF shows as lines and a BOM is stripped", async () => {
    await writeFile(join(dir, "crlf.txt"), "\uFEFFone\r\ntwo\r\n");
    expect(text(await run({ path: "crlf.txt" }))).toBe("1\tone\n2\ttwo");
  });

  test("multi-byte characters survive chunk boundaries", async () => {
    const line = "é".repeat(40_000);
    await writeFile(join(dir, "wide.txt"), `${line}\nend\n`);
    const out = text(await run({ path: "wide.txt", offset: 2 }));
    expect(out).toBe("2\tend");
    const first = text(await run({ path: "wide.txt", limit: 1 }));
    expect(first.startsWith(`1\t${"é".repeat(2000)}… [line cut`)).toBe(true);
  });

  test("the default window stops at 2000 lines", async () => {
    await writeFile(join(dir, "many.txt"), Array.from({ length: 2500 }, (_, i) => `row ${i + 1}`).join("\n"));
    const out = text(await run({ path: "many.txt" }));
    expect(out.split("\n").filter((l) => /^\s*\d+\t/.test(l)).length).toBe(2000);
    expect(out).toContain("Use offset=2001 to continue.");
  });

  test("the byte cap stops long windows early", async () => {
    await writeFile(join(dir, "fat.txt"), Array.from({ length: 1000 }, () => "y".repeat(200)).join("\n"));
    const out = text(await run({ path: "fat.txt" }));
    const shown = out.split("\n").filter((l) => /^\s*\d+\t/.test(l)).length;
    expect(shown).toBeLessThan(1000);
    expect(out.length).toBeLessThan(52 * 1024);
    expect(out).toContain(`Use offset=${shown + 1} to continue.`);
  });

  test("a 50 MB file is read by window", async () => {
    const path = join(dir, "big.txt");
    const handle = await open(path, "w");
    const block = Array.from({ length: 10_000 }, (_, i) => `line ${String(i).padStart(6, "0")} ${"z".repeat(80)}`).join("\n");
    for (let b = 0; b < 57; b++) await handle.write(`${block}\n`);
    await handle.close();
    const result = await run({ path: "big.txt", offset: 400_001, limit: 3 });
    const lines = text(result).split("\n");
    expect(lines[0]).toBe(`400001\tline 000000 ${"z".repeat(80)}`);
    expect(lines[2]).toBe(`400003\tline 000002 ${"z".repeat(80)}`);
    expect((result.details as { totalLines: number }).totalLines).toBe(570_000);
  });

  test("binary files are refused", async () => {
    await writeFile(join(dir, "bin.dat"), new Uint8Array([1, 2, 0, 3, 4]));
    expect((await run({ path: "bin.dat" }).catch((e) => e)).message).toContain("binary file");
  });

  test("an image comes back as a second, image block", async () => {
    const png = Buffer.from("89504e470d0a1a0a0000000d49484452", "hex");
    await writeFile(join(dir, "pic.bin"), png);
    const result = await run({ path: "pic.bin" });
    expect(result.content[0]!.type).toBe("text");
    expect(result.content[1]).toEqual({ type: "image", mimeType: "image/png", data: png.toString("base64") });
  });

  test("a directory or a missing file is an error", async () => {
    expect((await run({ path: "." }).catch((e) => e)).message).toContain("is a directory");
    expect((await run({ path: "missing.txt" }).catch((e) => e)).message).toContain("does not exist");
  });

  test("an empty file says so", async () => {
    await writeFile(join(dir, "empty.txt"), "");
    expect(text(await run({ path: "empty.txt" }))).toBe("empty.txt is empty");
  });
});
