import { describe, expect, test } from "bun:test";
import { parseSse } from "../../src/providers/sse.ts";
import { collect, encode, splits, streamOf } from "./helpers.ts";

const BODY =
  ": ping\r\n" +
  "event: greet\r\ndata: héllo 中文 🎉\r\n\r\n" +
  "data: line one\rdata: line two\r\r" +
  "data:no-space\n\n" +
  "event: only-event\n\n" +
  "id: 7\nretry: 100\ndata\n\n" +
  'data: {"a":1}\n' +
  ": comment between lines\n" +
  'data: {"b":2}\n\n' +
  "data: last without blank line\n";

const EXPECTED = [
  { event: "greet", data: "héllo 中文 🎉" },
  { event: undefined, data: "line one\nline two" },
  { event: undefined, data: "no-space" },
  { event: undefined, data: "" },
  { event: undefined, data: '{"a":1}\n{"b":2}' },
  { event: undefined, data: "last without blank line" },
];

describe("parseSse", () => {
  test("parses events, comments, multi-line data and every line ending", async () => {
    expect(await collect(parseSse(streamOf([encode(BODY)])))).toEqual(EXPECTED);
  });

  test("gives the same events at every split offset, inside UTF-8 and between \\r and \\n", async () => {
    const whole = await collect(parseSse(streamOf([encode(BODY)])));
    for (const chunks of splits(encode(BODY))) {
      expect(await collect(parseSse(streamOf(chunks)))).toEqual(whole);
    }
  });

  test("does not merge events across a \\r\\n split between chunks", async () => {
    const events = await collect(parseSse(streamOf([encode("data: a\r"), encode("\n\r"), encode("\ndata: b\r\n\r\n")])));
    expect(events).toEqual([
      { event: undefined, data: "a" },
      { event: undefined, data: "b" },
    ]);
  });

  test("drops an event name with no data", async () => {
    expect(await collect(parseSse(streamOf([encode("event: x\n\n: c\n\n")])))).toEqual([]);
  });
});
