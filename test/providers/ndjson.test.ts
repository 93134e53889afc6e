import { describe, expect, test } from "bun:test";
import { parseNdjson } from "../../src/providers/ndjson.ts";
import { collect, encode, splits, streamOf } from "./helpers.ts";

const BODY = '{"a":"é🎉"}\n\n{"b":[1,2]}\r\n  \n{"c":null}';

describe("parseNdjson", () => {
  test("parses one value per line and skips blank lines", async () => {
    expect(await collect(parseNdjson(streamOf([encode(BODY)])))).toEqual([{ a: "é🎉" }, { b: [1, 2] }, { c: null }]);
  });

  test("gives the same values at every split offset", async () => {
    const whole = await collect(parseNdjson(streamOf([encode(BODY)])));
    for (const chunks of splits(encode(BODY))) {
      expect(await collect(parseNdjson(streamOf(chunks)))).toEqual(whole);
    }
  });

  test("a bad line throws after the good ones, naming the line", async () => {
    const seen: unknown[] = [];
    let error: Error | undefined;
    try {
      for await (const value of parseNdjson(streamOf([encode('{"ok":1}\n{"broken":\n')]))) seen.push(value);
    } catch (e) {
      error = e as Error;
    }
    expect(seen).toEqual([{ ok: 1 }]);
    expect(error?.message).toMatch(/NDJSON line 2 is not valid JSON .*\{"broken":/);
  });
});
