import { describe, expect, test } from "bun:test";
import { makeRedactor, redactDeep } from "../../src/session/redact.ts";

describe("makeRedactor", () => {
  test("replaces every occurrence of each known secret, longest first", () => {
    const redact = makeRedactor(["hunter2-secret", "hunter2-secret-long", "abc", "a.b*c"]);
    expect(redact("x hunter2-secret-long y hunter2-secret z")).toBe("x [redacted] y [redacted] z");
    expect(redact("abc is short but a secret all the same")).toBe("[redacted] is short but a secret all the same");
    expect(makeRedactor(["k"])("a key of one character: k")).toBe("a [redacted]ey of one character: [redacted]");
    expect(makeRedactor([""])("an empty value redacts nothing")).toBe("an empty value redacts nothing");
    expect(redact("regex chars a.b*c and aXbbc")).toBe("regex chars [redacted] and aXbbc");
  });

  test("redacts common key shapes it was not told about", () => {
    const redact = makeRedactor([]);
    expect(redact("key sk-ant-api03-AbCdEf_1234567890-xyz end")).toBe("key [redacted] end");
    expect(redact("OPENAI=sk-proj-abcdefghijklmnop1234")).toBe("OPENAI=[redacted]");
    expect(redact("g AIzaSyA1234567890abcdefghijklmnop")).toBe("g [redacted]");
    expect(redact("Authorization: Bearer eyJhbGciOi.J9.abc")).toBe("Authorization: Bearer [redacted]");
    expect(redact("task-list and sk-short stay")).toBe("task-list and sk-short stay");
  });
});

describe("redactDeep", () => {
  test("redacts strings and keys at any depth, leaving other values alone", () => {
    const redact = makeRedactor(["s3cr3t"]);
    expect(redactDeep({ a: ["s3cr3t!", 1, null, { s3cr3t: true }], b: false }, redact)).toEqual({
      a: ["[redacted]!", 1, null, { "[redacted]": true }],
      b: false,
    });
  });
});
