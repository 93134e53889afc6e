import { describe, expect, test } from "bun:test";
import { decodeRecord, readRecords } from "../../src/wire/records.ts";

const bytes = (text: string) => new TextEncoder().encode(text);
const record = (text: string) => decodeRecord({ kind: "record", bytes: bytes(text) });

describe("decodeRecord", () => {
  test("a JSON object is an object; whitespace only is blank", () => {
    expect(record('{"type":"x"}')).toEqual({ kind: "object", value: { type: "x" } });
    expect(record(" \t\r")).toEqual({ kind: "blank" });
  });

  test("JSON that is not an object keeps its value so each protocol can name it", () => {
    expect(record("[1]")).toEqual({ kind: "not_object", value: [1] });
    expect(record("null")).toEqual({ kind: "not_object", value: null });
    expect(record('"s"')).toEqual({ kind: "not_object", value: "s" });
  });

  test("oversize, invalid UTF-8 and bad JSON are parse errors with their reason", () => {
    expect(decodeRecord({ kind: "oversize", bytes: 9_000_000 })).toEqual({ kind: "parse_error", reason: "oversize", message: "record exceeds 8 MiB limit (9000000 bytes)" });
    expect(decodeRecord({ kind: "record", bytes: new Uint8Array([0x7b, 0xff, 0x7d]) })).toEqual({ kind: "parse_error", reason: "utf8", message: "record is not valid UTF-8" });
    const bad = record("{nope");
    expect(bad.kind === "parse_error" && bad.reason).toBe("json");
  });
});

test("readRecords yields the records of every chunk in order, the last one without a trailing LF", async () => {
  const input = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(bytes('{"a":1}\n{"b"'));
      controller.enqueue(bytes(":2}\n \n[3]"));
      controller.close();
    },
  });
  const seen = [];
  for await (const decoded of readRecords(input)) seen.push(decoded);
  expect(seen).toEqual([{ kind: "object", value: { a: 1 } }, { kind: "object", value: { b: 2 } }, { kind: "blank" }, { kind: "not_object", value: [3] }]);
});
