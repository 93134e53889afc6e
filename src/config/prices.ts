/**
 * What the models of the API-key presets cost, from the one data file
 * `prices.json` (its source and date are in the file), and the config's
 * `costs` overrides. A model nova has no price for costs 0.
 */
import type { ModelCost, Model } from "../providers/types.ts";
import table from "./prices.json" with { type: "json" };

const prices: Record<string, ModelCost | undefined> = table.models;

/** The built-in price of `provider/id`, or zero. */
export function builtinCost(provider: string, id: string): ModelCost {
  return { ...(prices[`${provider}/${id}`] ?? { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 }) };
}

/** The config's `costs: {"provider/id": {...}}` win over the built-in and the declared prices. */
export function applyCosts(models: Model[], costs: Record<string, ModelCost>): void {
  for (const model of models) {
    const cost = costs[`${model.provider}/${model.id}`];
    if (cost) model.cost = { ...cost };
  }
}
