import { describe, expect, test } from "bun:test";
import { clampThinking, reasoningEffort, thinkingBudget } from "../../src/providers/thinking.ts";
import { testModel } from "./helpers.ts";

describe("thinking levels", () => {
  test("models without reasoning always run with thinking off", () => {
    expect(clampThinking("high", testModel({ reasoning: false }))).toBe("off");
    expect(clampThinking("high", testModel({ reasoning: true }))).toBe("high");
  });

  test("budgets grow with the level and stay below max tokens", () => {
    const levels = ["minimal", "low", "medium", "high", "xhigh", "max"] as const;
    const budgets = levels.map((level) => thinkingBudget(level, 200_000) ?? 0);
    expect(budgets.every((b, i) => i === 0 || b > budgets[i - 1]!)).toBe(true);
    expect(thinkingBudget("max", 8192)).toBe(7168);
    expect(thinkingBudget("off", 200_000)).toBeUndefined();
    expect(thinkingBudget("low", 1500)).toBeUndefined();
  });

  test("effort words cap at high", () => {
    expect(reasoningEffort("minimal")).toBe("minimal");
    expect(reasoningEffort("max")).toBe("high");
    expect(reasoningEffort("off")).toBeUndefined();
  });
});
