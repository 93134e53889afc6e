/**
 * What a prompt may ask of its run besides the message: spending limits and
 * an output schema. A run without either has no `RunControls`, so an
 * ordinary prompt pays nothing for them.
 */
import type { Config } from "../config/load.ts";
import type { AssistantMessage, UserMessage } from "../core/messages.ts";
import type { BudgetStop } from "../core/enums.ts";
import type { Emit } from "./events.ts";
import { Budget, type Limits } from "./budget.ts";
import type { OutputSpec, StructuredOutput } from "./structured-output.ts";

export interface RunOptions {
  limits?: Limits;
  output?: OutputSpec;
}

/** What a front end received: a prompt's fields (rpc) or its `_meta["nova/run"]` (acp). */
export interface RunFields {
  outputSchema?: Record<string, unknown>;
  maxTurns?: number;
  maxCostUsd?: number;
  maxTokens?: number;
}

/**
 * The options of a prompt, undefined when it asks for none. The schema is
 * compiled here, on arrival, so a bad one (an Error naming the problem)
 * rejects the command before anything runs; its code loads only then.
 */
export async function runOptions(fields: RunFields): Promise<RunOptions | undefined> {
  const { outputSchema, maxTurns, maxCostUsd, maxTokens } = fields;
  if (outputSchema === undefined && maxTurns === undefined && maxCostUsd === undefined && maxTokens === undefined) return undefined;
  const output = outputSchema === undefined ? undefined : (await import("./structured-output.ts")).compileOutputSchema(outputSchema);
  return { output, limits: { maxTurns, maxCostUsd, maxTokens } };
}

export class RunControls {
  private constructor(
    /** the run's own budget, or the parent's when this conversation is a sub-agent of a run with one */
    private budget: Budget | undefined,
    private output: StructuredOutput | undefined,
    private readonly config: Config,
    private readonly emit: Emit,
  ) {}

  /** Controls for a run, or undefined when nothing is asked (no limit anywhere, no schema). */
  static for(options: RunOptions | undefined, config: Config, emit: Emit, parentBudget: Budget | undefined): RunControls | undefined {
    const limits = options?.limits && Budget.wanted(options.limits) ? options.limits : config.limits;
    const budget = parentBudget ?? (Budget.wanted(limits) ? new Budget(limits, emit) : undefined);
    const output = options?.output?.start(config.structuredOutput.maxAttempts);
    return budget || output ? new RunControls(budget, output, config, emit) : undefined;
  }

  /** A queued message delivered into the run with options of its own: its schema and limits apply from then on. */
  adopt(options: RunOptions): void {
    if (options.output) this.output = options.output.start(this.config.structuredOutput.maxAttempts);
    if (!options.limits || !Budget.wanted(options.limits)) return;
    if (this.budget) this.budget.replace(options.limits);
    else this.budget = new Budget(options.limits, this.emit);
  }

  /** What sub-agents of this run charge. */
  get sharedBudget(): Budget | undefined {
    return this.budget;
  }

  /** The schema's pursuit, when the run has one. */
  get structured(): StructuredOutput | undefined {
    return this.output;
  }

  charge(message: AssistantMessage): void {
    this.budget?.charge(message);
  }

  limit(): BudgetStop | undefined {
    return this.budget?.exhausted();
  }

  beforeStop(lastAnswer: AssistantMessage | undefined): UserMessage[] {
    return this.output?.beforeStop(lastAnswer) ?? [];
  }

  turnOutput(message: AssistantMessage): unknown {
    return this.output?.turnOutput(message);
  }

  done(): boolean {
    return this.output?.done() ?? false;
  }

  outcome(): { structuredOutput?: unknown; error?: string } | undefined {
    return this.output?.outcome();
  }
}
