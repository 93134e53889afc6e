/**
 * `--model` and `--models` patterns, resolved against the models the config
 * declares: `provider/id`, a bare id looked up across providers, a
 * case-insensitive `*` glob (--models), and an optional `:level` suffix.
 */
import type { Model } from "../providers/types.ts";
import { thinkingLevels, type ThinkingLevel } from "../core/enums.ts";
import { matcher } from "../core/patterns.ts";
import { UsageError } from "./args.ts";

export interface ModelChoice {
  provider: string;
  id: string;
  /** the pattern's `:level` suffix */
  thinking?: ThinkingLevel;
}

/** `sonnet:high` → ["sonnet", "high"]; a colon that is part of the id (`qwen3:8b`) stays. */
export function splitThinking(pattern: string): { pattern: string; thinking?: ThinkingLevel } {
  const colon = pattern.lastIndexOf(":");
  const suffix = colon > 0 ? pattern.slice(colon + 1) : "";
  if ((thinkingLevels as readonly string[]).includes(suffix)) return { pattern: pattern.slice(0, colon), thinking: suffix as ThinkingLevel };
  return { pattern };
}

const label = (m: Model) => `${m.provider}/${m.id}`;

/**
 * The one model `--model` names. Exact matches win over looser ones (id or
 * name ignoring case, then a part of the id); several at the same level are an
 * error that lists them.
 */
export function resolveModel(raw: string, provider: string | undefined, models: Model[]): ModelChoice {
  const { pattern, thinking } = splitThinking(raw);
  const within = (name: string) => models.filter((m) => m.provider === name);
  const slash = pattern.indexOf("/");
  const prefix = slash > 0 ? pattern.slice(0, slash) : "";
  // provider/id first; an id may itself hold a slash (openrouter's anthropic/claude-…)
  const attempts: [Model[], string][] = provider
    ? [[within(provider), pattern]]
    : prefix && models.some((m) => m.provider === prefix)
      ? [
          [within(prefix), pattern.slice(slash + 1)],
          [models, pattern],
        ]
      : [[models, pattern]];
  for (const [pool, id] of attempts) {
    const found = matchOne(raw, pool, id);
    if (found) return { provider: found.provider, id: found.id, thinking };
  }
  throw new UsageError(`Model not found: ${provider ? `${provider}/` : ""}${pattern}`);
}

function matchOne(raw: string, pool: Model[], id: string): Model | undefined {
  const lower = id.toLowerCase();
  const levels = [(m: Model) => m.id === id, (m: Model) => m.id.toLowerCase() === lower || m.name.toLowerCase() === lower, (m: Model) => m.id.toLowerCase().includes(lower)];
  for (const level of levels) {
    const found = pool.filter(level);
    if (found.length === 1) return found[0];
    if (found.length > 1) {
      throw new UsageError(`--model ${raw} matches several models: ${found.map(label).join(", ")}; name one as provider/id or add --provider`);
    }
  }
  return undefined;
}

/** Every model the `--models` list names, in its order, without repeats; a pattern matching none is a warning. */
export function resolveScope(patterns: string[], models: Model[], warn: (message: string) => void): ModelChoice[] {
  const scope: ModelChoice[] = [];
  for (const raw of patterns) {
    const { pattern, thinking } = splitThinking(raw);
    const test = matcher(pattern);
    const found = models.filter((m) => test(label(m)) || test(m.id));
    if (found.length === 0) warn(`--models: no model matches "${raw}"`);
    for (const m of found) {
      if (!scope.some((s) => s.provider === m.provider && s.id === m.id)) scope.push({ provider: m.provider, id: m.id, thinking });
    }
  }
  return scope;
}
