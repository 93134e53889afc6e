import { expect, test } from "bun:test";
import { applyPartialArg } from "../../src/providers/partial-args.ts";

test("streamed argument pieces build nested objects and arrays, strings joined", () => {
  const args: Record<string, unknown> = {};
  applyPartialArg(args, { jsonPath: "$.id", stringValue: "A", willContinue: true });
  applyPartialArg(args, { jsonPath: "$.id", stringValue: "BC" });
  applyPartialArg(args, { jsonPath: "$.items[0].name", stringValue: "x" });
  applyPartialArg(args, { jsonPath: "$.items[1]", numberValue: 2 });
  applyPartialArg(args, { jsonPath: "$['odd key']", boolValue: true });
  applyPartialArg(args, { jsonPath: "$.gone", nullValue: null });
  expect(args).toEqual({ id: "ABC", items: [{ name: "x" }, 2], "odd key": true, gone: null });
});
