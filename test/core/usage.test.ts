import { expect, test } from "bun:test";
import { emptyUsage, type AssistantMessage } from "../../src/core/messages.ts";
import { countTotal, sumUsage } from "../../src/core/usage.ts";

function answer(input: number, output: number, cacheRead: number, cacheWrite: number, cost: number): AssistantMessage {
  const usage = emptyUsage();
  Object.assign(usage, { input, output, cacheRead, cacheWrite, totalTokens: input + output + cacheRead + cacheWrite });
  usage.cost.total = cost;
  return { role: "assistant", content: [], api: "ollama", provider: "p", model: "m", usage, stopReason: "stop", timestamp: 0 };
}

test("sumUsage adds every count and cost, totalTokens from the summed counts", () => {
  const sum = sumUsage([answer(10, 5, 2, 1, 0.5), answer(3, 4, 0, 7, 0.25)]);
  expect(sum).toMatchObject({ input: 13, output: 9, cacheRead: 2, cacheWrite: 8, totalTokens: 32 });
  expect(sum.cost.total).toBe(0.75);
  expect(sumUsage([])).toEqual(emptyUsage());
});

test("countTotal adds input, output and both caches", () => {
  expect(countTotal({ input: 1, output: 2, cacheRead: 3, cacheWrite: 4 })).toBe(10);
});
