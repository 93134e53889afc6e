import { describe, expect, test } from "bun:test";
import { LfScanner, type ScanItem } from "../../src/wire/lf-scanner.ts";

const enc = new TextEncoder();
const dec = new TextDecoder();

function scan(chunks: Uint8Array[], max?: number): ScanItem[] {
  const scanner = new LfScanner(max);
  const out: ScanItem[] = [];
  for (const chunk of chunks) scanner.push(chunk, (item) => out.push(item));
  scanner.end((item) => out.push(item));
  return out;
}
const texts = (items: ScanItem[]) => items.map((i) => (i.kind === "record" ? dec.decode(i.bytes) : `<oversize ${i.bytes}>`));

describe("LfScanner", () => {
  test("splits on LF only, strips one trailing CR, keeps U+2028/U+2029, skips empty records", () => {
    const input = enc.encode('{"a":"x\u2028y\u2029z"}\r\n\n\r\n{"b":1}\n{"c":2}');
    expect(texts(scan([input]))).toEqual(['{"a":"x\u2028y\u2029z"}', '{"b":1}', '{"c":2}']);
  });

  test("every split point of the input gives the same records", () => {
    const input = enc.encode('{"id":"1","s":"日本\u2028"}\r\n{"id":"2"}\n\n{"id":"3"}\r\n');
    const whole = texts(scan([input]));
    for (let i = 0; i <= input.length; i++) {
      for (let j = i; j <= input.length; j += 3) {
        expect(texts(scan([input.subarray(0, i), input.subarray(i, j), input.subarray(j)]))).toEqual(whole);
      }
    }
  });

  test("a record inside one chunk is a view of that chunk, not a copy", () => {
    const chunk = enc.encode('{"a":1}\n{"b":2}\n');
    const [first, second] = scan([chunk]);
    expect(first!.kind === "record" && first!.bytes.buffer).toBe(chunk.buffer);
    expect(second!.kind === "record" && second!.bytes.byteOffset).toBe(8);
  });

  test("the cap counts the record without its LF and trailing CR", () => {
    expect(texts(scan([enc.encode("12345\n123456\n1234\r\n")], 5))).toEqual(["12345", "<oversize 6>", "1234"]);
    expect(texts(scan([enc.encode("12345\r\n")], 5))).toEqual(["12345"]);
  });

  test("an oversized record is dropped while it streams, then reading resumes", () => {
    const chunks = [enc.encode("ok\nxxxxxxxx"), enc.encode("xxxxxxxx"), enc.encode("xx\r\nnext\n")];
    expect(texts(scan(chunks, 8))).toEqual(["ok", "<oversize 18>", "next"]);
  });

  test("a final record without LF still counts; an oversized one at the end is reported", () => {
    expect(texts(scan([enc.encode("a\nb")]))).toEqual(["a", "b"]);
    expect(texts(scan([enc.encode("toolong")], 3))).toEqual(["<oversize 7>"]);
  });
});
