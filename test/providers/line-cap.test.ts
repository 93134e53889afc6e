import { describe, expect, test } from "bun:test";
import { readErrorBody } from "../../src/providers/errors.ts";
import { withLineCap } from "../../src/providers/line-cap.ts";
import { encode } from "./helpers.ts";

function streamOf(...parts: string[]): ReadableStream<Uint8Array> {
  return new ReadableStream<Uint8Array>({
    start(controller) {
      for (const p of parts) controller.enqueue(encode(p));
      controller.close();
    },
  });
}

describe("withLineCap", () => {
  test("lines up to the cap pass, in one chunk or split over several", async () => {
    expect(await new Response(withLineCap(streamOf("abcd\nefgh\r\n", "ij", "kl\n"), 4)).text()).toBe("abcd\nefgh\r\nijkl\n");
  });

  test("a line longer than the cap across chunks errors and cancels the source", async () => {
    let cancelled = false;
    const source = new ReadableStream<Uint8Array>({
      pull(controller) {
        controller.enqueue(encode("xxx"));
      },
      cancel() {
        cancelled = true;
      },
    });
    const err = await new Response(withLineCap(source, 10)).text().catch((e) => e);
    expect(err.error).toEqual({ message: "the provider sent a line longer than 10 bytes (stream.maxLineBytes); the response was abandoned", retryable: false });
    expect(cancelled).toBe(true);
  });

  test("a long line inside one chunk, before its last line end, is caught too", async () => {
    const err = await new Response(withLineCap(streamOf("ok\n0123456789ab\nok\n"), 8)).text().catch((e) => e);
    expect(err.error.message).toContain("longer than 8 bytes");
  });

  test("the open line carried from the previous chunk counts", async () => {
    const err = await new Response(withLineCap(streamOf("012345", "678\nok\n"), 8)).text().catch((e) => e);
    expect(err.error.message).toContain("longer than 8 bytes");
  });
});

describe("readErrorBody", () => {
  test("keeps the first bytes and says it cut the rest", async () => {
    expect(await readErrorBody(streamOf("0123", "4567", "89"), 1000, 6)).toEqual({ text: "012345", cut: true, stalled: false });
    expect(await readErrorBody(streamOf("short"), 1000, 6)).toEqual({ text: "short", cut: false, stalled: false });
  });

  test("a stalled body ends the read with what came", async () => {
    const stalled = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(encode('{"error"'));
      },
    });
    expect(await readErrorBody(stalled, 50)).toEqual({ text: '{"error"', cut: false, stalled: true });
  });
});
