import { describe, expect, test } from "bun:test";
import { blockText } from "../../src/core/text.ts";

describe("blockText", () => {
  const blocks = [
    { type: "text" as const, text: "one" },
    { type: "image" as const, data: "AAAA", mimeType: "image/png" },
    { type: "thinking" as const, thinking: "hidden" },
    { type: "text" as const, text: "two" },
  ];

  test("joins only the text blocks, with the caller's separator", () => {
    expect(blockText(blocks)).toBe("onetwo");
    expect(blockText(blocks, "\n")).toBe("one\ntwo");
    expect(blockText(blocks, " ")).toBe("one two");
  });

  test("a string is its own text, and no text blocks give an empty string", () => {
    expect(blockText("plain", "\n")).toBe("plain");
    expect(blockText([{ type: "image", data: "AAAA", mimeType: "image/png" }], "\n")).toBe("");
  });
});
