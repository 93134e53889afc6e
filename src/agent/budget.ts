/**
 * A prompt's spending limits: model requests (turns), dollars and tokens of
 * the run, its sub-agents' included (a child charges its parent's budget).
 * The loop asks before every model request; a budget that is used up stops
 * the run there. Passing 80 % of a limit is reported once per kind.
 */
import type { BudgetKind, BudgetStop } from "../core/enums.ts";
import type { AssistantMessage } from "../core/messages.ts";
import type { Emit } from "./events.ts";

export interface Limits {
  maxTurns?: number;
  maxCostUsd?: number;
  maxTokens?: number;
}

const WARN_AT = 0.8;
/** dollars are sums of float products: $0.02 + $0.02 must reach 80 % of $0.05 */
const SLACK = 1 - 1e-9;

const kinds: { kind: BudgetKind; limit: keyof Limits; stop: BudgetStop }[] = [
  { kind: "turns", limit: "maxTurns", stop: "max_turns" },
  { kind: "cost", limit: "maxCostUsd", stop: "max_cost" },
  { kind: "tokens", limit: "maxTokens", stop: "max_tokens" },
];

export class Budget {
  private readonly used: Record<BudgetKind, number> = { turns: 0, cost: 0, tokens: 0 };
  private readonly warned = new Set<BudgetKind>();

  constructor(
    private limits: Limits,
    private readonly emit: Emit,
  ) {}

  /** Limits that any limit is set at all: no budget object is made otherwise. */
  static wanted(limits: Limits): boolean {
    return limits.maxTurns !== undefined || limits.maxCostUsd !== undefined || limits.maxTokens !== undefined;
  }

  /** A follow-up delivered into the run with limits of its own: they apply from now on, to what the run has used so far. */
  replace(limits: Limits): void {
    this.limits = limits;
    this.warned.clear();
    this.warn();
  }

  /** Every answer of the run (and of its sub-agents) is charged once. */
  charge(message: AssistantMessage): void {
    this.used.turns++;
    this.used.cost += message.usage.cost.total;
    this.used.tokens += message.usage.totalTokens;
    this.warn();
  }

  /** The limit the next model request would pass, if any. */
  exhausted(): BudgetStop | undefined {
    for (const { kind, limit, stop } of kinds) {
      const max = this.limits[limit];
      if (max !== undefined && this.used[kind] >= max * SLACK) return stop;
    }
    return undefined;
  }

  private warn(): void {
    for (const { kind, limit } of kinds) {
      const max = this.limits[limit];
      if (max === undefined || this.warned.has(kind) || this.used[kind] < max * WARN_AT * SLACK) continue;
      this.warned.add(kind);
      this.emit({ type: "budget_warning", kind, used: this.used[kind], limit: max });
    }
  }
}
