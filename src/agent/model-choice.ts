/**
 * Which model answers and how hard it thinks: the command line's or the
 * config's choice at start, set/cycle commands later, and what a session file
 * brings back. Each change is recorded in the session file.
 */
import type { Config } from "../config/load.ts";
import { thinkingLevels, type ThinkingLevel } from "../core/enums.ts";
import { parseModelRef } from "../core/model-ref.ts";
import type { Model } from "../providers/types.ts";
import { clampThinking, supportedThinkingLevels } from "../providers/registry.ts";
import type { Emit } from "./events.ts";
import type { EntryInput } from "../session/index.ts";
import { CommandError } from "./errors.ts";
import { modelNotFound } from "../config/env-providers.ts";
import { scopedCycle, type ScopedModel } from "./model-scope.ts";

const BUSY = "Cannot change the model while the agent is streaming; abort or wait for agent_end.";

export class ModelChoice {
  model: Model | undefined;
  thinkingLevel: ThinkingLevel;

  constructor(
    private readonly config: Config,
    private readonly choice: { model?: { provider: string; id: string }; thinking?: ThinkingLevel; modelScope?: ScopedModel[] },
    private readonly owner: { record(entry: EntryInput): void; emit: Emit; busy(): boolean },
  ) {
    this.model = this.initial(choice.model);
    this.thinkingLevel = this.clamp(choice.thinking ?? config.defaultThinkingLevel ?? "medium");
  }

  /** Every model the config declares; read live, since `login` can add a provider. */
  get all(): Model[] {
    return this.config.providers.flatMap((p) => p.models);
  }

  find(provider: string, id: string): Model | undefined {
    return this.all.find((m) => m.provider === provider && m.id === id);
  }

  set(provider: string, id: string): Model {
    if (this.owner.busy()) throw new CommandError(BUSY);
    const model = this.find(provider, id);
    if (!model) throw new CommandError(modelNotFound(this.config.providers, provider, id));
    this.apply(model);
    return model;
  }

  cycle(): { model: Model; thinkingLevel: ThinkingLevel; isScoped: boolean } | null {
    if (this.owner.busy()) throw new CommandError(BUSY);
    const scope = this.choice.modelScope;
    if (scope && scope.length > 0) {
      const next = scopedCycle(scope, this.model, (provider, id) => this.find(provider, id));
      if (!next) return null;
      this.apply(next.model);
      if (next.thinking) this.setThinking(next.thinking);
      return { model: next.model, thinkingLevel: this.thinkingLevel, isScoped: true };
    }
    const all = this.all;
    if ((all.length < 2 && this.model) || all.length === 0) return null;
    const index = this.model ? all.indexOf(this.model) : -1;
    this.apply(all[(index + 1) % all.length]!);
    return { model: this.model!, thinkingLevel: this.thinkingLevel, isScoped: false };
  }

  setThinking(level: ThinkingLevel): ThinkingLevel {
    const clamped = this.clamp(level);
    if (clamped !== this.thinkingLevel) {
      this.thinkingLevel = clamped;
      this.owner.record({ type: "thinking_level_change", thinkingLevel: clamped });
      this.owner.emit({ type: "thinking_level_changed", level: clamped });
    }
    return clamped;
  }

  /** Every level without a model; otherwise what the model supports (xhigh and max only where declared). */
  thinkingLevels(): ThinkingLevel[] {
    return this.model ? supportedThinkingLevels(this.model) : [...thinkingLevels];
  }

  cycleThinking(): { level: ThinkingLevel } | null {
    const levels = this.thinkingLevels();
    if (levels.length < 2) return null;
    return { level: this.setThinking(levels[(levels.indexOf(this.thinkingLevel) + 1) % levels.length]!) };
  }

  /** A conversation that began with no model takes the first one a server lists later (Ollama's, discover: true). */
  adoptDiscovered(): void {
    if (!this.model && this.all.length > 0) {
      const first = this.initial(this.choice.model);
      if (first) this.apply(first);
    }
  }

  /** What a session file switched to brings back (not recorded again). */
  restore(saved: { model?: { provider: string; modelId: string }; thinkingLevel?: ThinkingLevel }): void {
    const model = saved.model && this.find(saved.model.provider, saved.model.modelId);
    if (model) this.model = model;
    if (saved.thinkingLevel) this.thinkingLevel = this.clamp(saved.thinkingLevel);
  }

  private apply(model: Model): void {
    this.model = model;
    const level = this.clamp(this.thinkingLevel);
    this.owner.record({ type: "model_change", provider: model.provider, modelId: model.id });
    if (level !== this.thinkingLevel) {
      this.thinkingLevel = level;
      this.owner.emit({ type: "thinking_level_changed", level });
    }
  }

  private clamp(level: ThinkingLevel): ThinkingLevel {
    return this.model ? clampThinking(level, this.model) : level;
  }

  private initial(chosen: { provider: string; id: string } | undefined): Model | undefined {
    if (chosen) return this.find(chosen.provider, chosen.id);
    const preferred = this.config.defaultModel;
    if (preferred) {
      const { provider, id } = parseModelRef(preferred);
      const found = this.find(provider, id);
      if (found) return found;
    }
    return this.all[0];
  }
}
