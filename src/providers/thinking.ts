/**
 * Thinking levels mapped onto what each API takes: a token budget
 * (Anthropic, Gemini) or an effort word (OpenAI). A model without reasoning
 * always runs with thinking off.
 */
import type { ThinkingLevel } from "../core/enums.ts";
import type { Model } from "./types.ts";

export function clampThinking(level: ThinkingLevel, model: Model): ThinkingLevel {
  return model.reasoning ? level : "off";
}

const BUDGET: Record<Exclude<ThinkingLevel, "off">, number> = {
  minimal: 1024,
  low: 4096,
  medium: 10240,
  high: 20480,
  xhigh: 32768,
  max: 65536,
};

/** Smallest budget Anthropic accepts. */
const MIN_BUDGET = 1024;

/**
 * Budget tokens for the level, kept below `maxTokens` so the answer after the
 * thinking still has room; undefined when thinking is off or cannot fit.
 */
export function thinkingBudget(level: ThinkingLevel, maxTokens: number): number | undefined {
  if (level === "off") return undefined;
  const budget = Math.min(BUDGET[level], maxTokens - MIN_BUDGET);
  return budget >= MIN_BUDGET ? budget : undefined;
}

export type ReasoningEffort = "minimal" | "low" | "medium" | "high";

/** OpenAI's effort words; the levels above `high` are sent as `high`, the most every model accepts. */
export function reasoningEffort(level: ThinkingLevel): ReasoningEffort | undefined {
  switch (level) {
    case "off":
      return undefined;
    case "minimal":
    case "low":
    case "medium":
    case "high":
      return level;
    case "xhigh":
    case "max":
      return "high";
  }
}
