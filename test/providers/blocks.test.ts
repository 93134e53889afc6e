import { describe, expect, test } from "bun:test";
import { BlockIndexer } from "../../src/providers/blocks.ts";

describe("BlockIndexer", () => {
  test("same-kind deltas share a block; a kind change or a tool call moves on", () => {
    const blocks = new BlockIndexer();
    expect([blocks.block("thinking"), blocks.block("thinking"), blocks.block("text"), blocks.standalone(), blocks.standalone(), blocks.block("text")]).toEqual([0, 0, 1, 2, 3, 4]);
  });
});
