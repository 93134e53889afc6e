import { describe, expect, test } from "bun:test";
import { rm } from "node:fs/promises";
import { OutputBuffer } from "../../src/tools/output-buffer.ts";

const enc = (s: string) => new TextEncoder().encode(s);

describe("OutputBuffer", () => {
  test("short output is kept whole, with no log file", async () => {
    const b = new OutputBuffer();
    b.push(enc("hello\r\n\x1b[32mgreen\x1b[0m\n"));
    await b.close();
    expect(b.tail()).toEqual({ text: "hello\ngreen\n", truncated: false });
    expect(b.logPath).toBeUndefined();
  });

  test("long output keeps whole lines from the end and spills everything to the log", async () => {
    const b = new OutputBuffer();
    for (let i = 0; i < 3000; i++) b.push(enc(`${"y".repeat(40)} ${i}\n`));
    await b.close();
    const { text, truncated } = b.tail();
    expect(truncated).toBe(true);
    const lines = text.trimEnd().split("\n");
    expect(lines.at(-1)).toBe(`${"y".repeat(40)} 2999`);
    expect(lines.every((l) => /^y{40} \d+$/.test(l))).toBe(true);
    expect(Buffer.byteLength(text)).toBeLessThanOrEqual(50 * 1024);
    const log = await Bun.file(b.logPath!).text();
    expect(log.split("\n").length).toBe(3001);
    await rm(b.logPath!);
  });

  test("a multi-byte character split across chunks decodes", async () => {
    const bytes = enc("é\n");
    const b = new OutputBuffer();
    b.push(bytes.subarray(0, 1));
    b.push(bytes.subarray(1));
    await b.close();
    expect(b.tail().text).toBe("é\n");
  });
});
