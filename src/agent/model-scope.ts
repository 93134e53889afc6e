/** Pi's --models: cycle_model steps through this list instead of every model the config declares. */
import type { ThinkingLevel } from "../core/enums.ts";
import type { Model } from "../providers/types.ts";

export interface ScopedModel {
  provider: string;
  id: string;
  /** the pattern's :level, applied when cycling onto this model */
  thinking?: ThinkingLevel;
}

/** The entry after the current model (the first when the current one is outside the scope); null with nothing to move to. */
export function scopedCycle(
  scope: ScopedModel[],
  current: Model | undefined,
  find: (provider: string, id: string) => Model | undefined,
): { model: Model; thinking?: ThinkingLevel } | null {
  const entries = scope.flatMap((s) => {
    const model = find(s.provider, s.id);
    return model ? [{ model, thinking: s.thinking }] : [];
  });
  const index = entries.findIndex((e) => e.model === current);
  if (entries.length === 0 || (index >= 0 && entries.length < 2)) return null;
  return entries[(index + 1) % entries.length] ?? null;
}
