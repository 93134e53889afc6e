import { expect, test } from "bun:test";
import { parseModelRef } from "../../src/core/model-ref.ts";

test("parseModelRef splits at the first slash and keeps the rest of the id", () => {
  expect(parseModelRef("openrouter/meta/llama-3")).toEqual({ provider: "openrouter", id: "meta/llama-3" });
  expect(parseModelRef("local/m")).toEqual({ provider: "local", id: "m" });
});

test("parseModelRef without a slash has no provider", () => {
  expect(parseModelRef("gpt-5")).toEqual({ provider: "", id: "gpt-5" });
});
