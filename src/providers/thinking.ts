/**
 * Thinking levels mapped onto what each API takes: a token budget
 * (Anthropic, Gemini) or an effort word (OpenAI). A model without reasoning
 * always runs with thinking off.
 */
import { thinkingLevels as LEVELS, type ThinkingLevel } from "../core/enums.ts";
import type { Model } from "./types.ts";

const STANDARD: readonly ThinkingLevel[] = ["off", "minimal", "low", "medium", "high"];

/**
 * The levels a model takes, in order. As in Pi, `xhigh` and `max` exist only
 * for a model that declares them; a model without reasoning has only `off`.
 */
export function supportedThinkingLevels(model: Model): ThinkingLevel[] {
  if (!model.reasoning) return ["off"];
  const declared = model.thinkingLevels;
  if (!declared) return [...STANDARD];
  return LEVELS.filter((level) => level === "off" || declared.includes(level));
}

/** An unsupported level becomes the nearest supported one above it, else the nearest below (Pi's rule). */
export function clampThinking(level: ThinkingLevel, model: Model): ThinkingLevel {
  const supported = supportedThinkingLevels(model);
  if (supported.includes(level)) return level;
  const index = LEVELS.indexOf(level);
  return LEVELS.slice(index + 1).find((l) => supported.includes(l)) ?? LEVELS.slice(0, index).findLast((l) => supported.includes(l)) ?? "off";
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
