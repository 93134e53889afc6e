import { describe, expect, test } from "bun:test";
import { readLines } from "../../src/providers/lines.ts";
import { collect, encode, streamOf } from "./helpers.ts";

describe("readLines", () => {
  test("joins a line spread over many chunks", async () => {
    const long = "x".repeat(10_000);
    const chunks = Array.from({ length: 100 }, (_, i) => encode(long.slice(i * 100, (i + 1) * 100)));
    expect(await collect(readLines(streamOf([...chunks, encode("\nnext")])))).toEqual([long, "next"]);
  });

  test("a lone \\r before end of stream ends a line once", async () => {
    expect(await collect(readLines(streamOf([encode("a\r"), encode("b\r")])))).toEqual(["a", "b"]);
  });

  test("keeps a character split across chunks whole", async () => {
    const bytes = encode("🎉\n");
    expect(await collect(readLines(streamOf([bytes.subarray(0, 1), bytes.subarray(1, 3), bytes.subarray(3)])))).toEqual(["🎉"]);
  });

  test("two streams read in lockstep do not disturb each other", async () => {
    const a = readLines(streamOf([encode("a1\na22\na333\n")]));
    const b = readLines(streamOf([encode("bbbbbbbbbb1\nb2\nb3\n")]));
    const seen: string[] = [];
    for (let i = 0; i < 3; i++) seen.push((await a.next()).value as string, (await b.next()).value as string);
    expect(seen).toEqual(["a1", "bbbbbbbbbb1", "a22", "b2", "a333", "b3"]);
  });

  test("cancels the source when the consumer stops early", async () => {
    let cancelled = false;
    const source = new ReadableStream<Uint8Array>({
      pull(controller) {
        controller.enqueue(encode("line\n"));
      },
      cancel() {
        cancelled = true;
      },
    });
    for await (const line of readLines(source)) {
      expect(line).toBe("line");
      break;
    }
    expect(cancelled).toBe(true);
  });
});
