/**
 * AgentSession: the state a host steers (model, thinking, queues, modes,
 * conversation, session file) and the host side of the loop. Commands from
 * any front end (rpc, acp) arrive here as method calls; everything that
 * happens is reported through one sink.
 */
import type { Config, ProviderEntry } from "../config/load.ts";
import type { AgentMessage, ImageContent, UserMessage } from "./messages.ts";
import type { AgentEvent, EventSink } from "./events.ts";
import type { Model, Provider, ProviderRequest, ThinkingLevel } from "../providers/types.ts";
import type { Tool, ToolContext, ToolResult } from "../tools/types.ts";
import { clampThinking, getProvider } from "../providers/registry.ts";
import { builtinTools } from "../tools/index.ts";
import { SessionStore, sessionDirFor } from "../session/index.ts";
import { runLoop, type LoopHost } from "./loop.ts";
import { thinkingLevels } from "../rpc/commands.ts";
import { PromptBuilder } from "./prompt-builder.ts";
import { estimateContextTokens } from "./tokens.ts";
import type { RetrySettings } from "./retry.ts";

export type QueueMode = "all" | "one-at-a-time";
export type InterruptMode = "immediate" | "wait";
export type StreamingBehavior = "steer" | "followUp";

export interface SessionOptions {
  config: Config;
  cwd: string;
  mode: "rpc" | "rpc-ui" | "acp";
  /** provider/id chosen on the command line */
  model?: { provider: string; id: string };
  thinking?: ThinkingLevel;
  sessionDir?: string;
  noSession: boolean;
  systemPrompt?: string;
  appendSystemPrompt?: string;
}

export class CommandError extends Error {}

interface Run {
  controller: AbortController;
  done: Promise<void>;
}

export class AgentSession implements LoopHost {
  readonly models: Model[];
  model: Model | undefined;
  thinkingLevel: ThinkingLevel;
  steeringMode: QueueMode = "one-at-a-time";
  followUpMode: QueueMode = "one-at-a-time";
  interruptMode: InterruptMode = "immediate";
  autoCompaction: boolean;
  autoRetry: boolean;
  isCompacting = false;
  store: SessionStore;
  tools: Tool[];

  private context: AgentMessage[] = [];
  private steering: UserMessage[] = [];
  private followUp: UserMessage[] = [];
  private run: Run | undefined;
  private retryWait: AbortController | undefined;
  private permissionRequests = new Map<string, (approved: boolean) => void>();
  private nextPermissionId = 1;
  private listeners = new Set<(event: AgentEvent) => void>();
  private flow: (() => Promise<void> | undefined) | undefined;
  private readonly prompts: PromptBuilder;
  private readonly providersByName: Map<string, ProviderEntry>;

  readonly sink: EventSink = {
    emit: (event) => {
      for (const listener of this.listeners) listener(event);
    },
    ready: () => this.flow?.(),
  };

  constructor(readonly options: SessionOptions) {
    const { config } = options;
    this.providersByName = new Map(config.providers.map((p) => [p.name, p]));
    this.models = config.providers.flatMap((p) => p.models);
    this.model = this.initialModel();
    this.thinkingLevel = this.clamp(options.thinking ?? config.defaultThinkingLevel ?? "medium");
    this.autoCompaction = config.compaction.enabled;
    this.autoRetry = config.retry.enabled;
    this.tools = builtinTools({ permissions: config.permissions });
    this.store = this.newStore();
    this.prompts = new PromptBuilder({
      cwd: options.cwd,
      novaHome: config.novaHome,
      custom: options.systemPrompt,
      append: options.appendSystemPrompt,
    });
  }

  // ----- wiring -----

  subscribe(listener: (event: AgentEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Lets the consumer of events hold the stream back when it falls behind. */
  setFlowControl(ready: () => Promise<void> | undefined): void {
    this.flow = ready;
  }

  get isStreaming(): boolean {
    return this.run !== undefined;
  }

  get cwd(): string {
    return this.options.cwd;
  }

  // ----- prompting -----

  /** Starts a run, or queues the message when one is running (which then needs a behaviour). */
  prompt(text: string, images: ImageContent[], behavior?: StreamingBehavior): void {
    const message = userMessage(text, images);
    if (this.run) {
      if (!behavior) {
        throw new CommandError(
          'Agent is already processing. Specify streamingBehavior ("steer" or "followUp") to queue the message.',
        );
      }
      this.enqueue(behavior === "steer" ? this.steering : this.followUp, message);
      return;
    }
    this.start([message]);
  }

  steer(text: string, images: ImageContent[]): void {
    if (!this.run) return this.start([userMessage(text, images)]);
    this.enqueue(this.steering, userMessage(text, images));
  }

  followUpMessage(text: string, images: ImageContent[]): void {
    if (!this.run) return this.start([userMessage(text, images)]);
    this.enqueue(this.followUp, userMessage(text, images));
  }

  /** Cancels the turn (fetch, tools, retry wait, permission prompts) and clears the queues. */
  async abort(): Promise<void> {
    const run = this.run;
    this.clearQueues();
    if (!run) return;
    run.controller.abort();
    await run.done;
  }

  async abortAndPrompt(text: string, images: ImageContent[]): Promise<void> {
    await this.abort();
    this.prompt(text, images);
  }

  clearQueues(): { steering: string[]; followUp: string[] } {
    const cleared = { steering: this.steering.map(textOf), followUp: this.followUp.map(textOf) };
    if (this.steering.length + this.followUp.length === 0) return cleared;
    this.steering = [];
    this.followUp = [];
    this.emitQueue();
    return cleared;
  }

  abortRetry(): void {
    this.retryWait?.abort();
  }

  /** Resolves once no run is active and nothing is queued. */
  async waitForIdle(): Promise<void> {
    while (this.run) await this.run.done;
  }

  get pendingMessageCount(): number {
    return this.steering.length + this.followUp.length;
  }

  // ----- permissions -----

  private askPermission = (request: { toolName: string; command: string }, signal: AbortSignal): Promise<boolean> => {
    if (signal.aborted) return Promise.resolve(false);
    const requestId = this.nextPermissionId++;
    return new Promise((resolve) => {
      const settle = (approved: boolean) => {
        this.permissionRequests.delete(String(requestId));
        signal.removeEventListener("abort", onAbort);
        resolve(approved);
      };
      const onAbort = () => settle(false);
      signal.addEventListener("abort", onAbort, { once: true });
      this.permissionRequests.set(String(requestId), settle);
      this.sink.emit({ type: "permission_request", requestId, toolName: request.toolName, command: request.command });
    });
  };

  answerPermission(requestId: string | number, approved: boolean): void {
    const settle = this.permissionRequests.get(String(requestId));
    if (!settle) throw new CommandError(`Unknown permission requestId: ${JSON.stringify(requestId)} (no pending request has it)`);
    settle(approved);
  }

  /** stdin closed: nobody can answer a permission request any more. */
  denyPendingPermissions(): void {
    for (const settle of [...this.permissionRequests.values()]) settle(false);
  }

  // ----- model and thinking -----

  findModel(provider: string, id: string): Model | undefined {
    return this.models.find((m) => m.provider === provider && m.id === id);
  }

  setModel(provider: string, id: string): Model {
    if (this.run) throw new CommandError("Cannot change the model while the agent is streaming; abort or wait for agent_end.");
    const model = this.findModel(provider, id);
    if (!model) throw new CommandError(`Model not found: ${provider}/${id}`);
    this.applyModel(model);
    return model;
  }

  cycleModel(): { model: Model; thinkingLevel: ThinkingLevel; isScoped: boolean } | null {
    if (this.run) throw new CommandError("Cannot change the model while the agent is streaming; abort or wait for agent_end.");
    if (this.models.length < 2 && this.model) return null;
    if (this.models.length === 0) return null;
    const index = this.model ? this.models.indexOf(this.model) : -1;
    this.applyModel(this.models[(index + 1) % this.models.length]);
    return { model: this.model!, thinkingLevel: this.thinkingLevel, isScoped: false };
  }

  setThinkingLevel(level: ThinkingLevel): ThinkingLevel {
    const clamped = this.clamp(level);
    if (clamped !== this.thinkingLevel) {
      this.thinkingLevel = clamped;
      this.store.append({ type: "thinking_level_change", thinkingLevel: clamped });
    }
    return clamped;
  }

  availableThinkingLevels(): ThinkingLevel[] {
    return this.model?.reasoning ? [...thinkingLevels] : ["off"];
  }

  cycleThinkingLevel(): { level: ThinkingLevel } | null {
    const levels = this.availableThinkingLevels();
    if (levels.length < 2) return null;
    const next = levels[(levels.indexOf(this.thinkingLevel) + 1) % levels.length];
    return { level: this.setThinkingLevel(next) };
  }

  private applyModel(model: Model): void {
    this.model = model;
    this.thinkingLevel = this.clamp(this.thinkingLevel);
    this.store.append({ type: "model_change", provider: model.provider, modelId: model.id });
  }

  private clamp(level: ThinkingLevel): ThinkingLevel {
    return this.model ? clampThinking(level, this.model) : level;
  }

  private initialModel(): Model | undefined {
    const { model } = this.options;
    if (model) return this.findModel(model.provider, model.id);
    const preferred = this.options.config.defaultModel;
    if (preferred) {
      const slash = preferred.indexOf("/");
      const found = this.findModel(preferred.slice(0, slash), preferred.slice(slash + 1));
      if (found) return found;
    }
    return this.models[0];
  }

  // ----- state -----

  messages(): AgentMessage[] {
    return this.context;
  }

  setSessionName(name: string): void {
    const trimmed = name.trim();
    if (!trimmed) throw new CommandError("Session name cannot be empty");
    this.store.append({ type: "session_info", name: trimmed });
  }

  lastAssistantText(): string | null {
    for (let i = this.context.length - 1; i >= 0; i--) {
      const m = this.context[i];
      if (m.role !== "assistant") continue;
      const text = m.content.flatMap((c) => (c.type === "text" ? [c.text] : [])).join("");
      if (text.trim()) return text;
    }
    return null;
  }

  contextUsage(): { tokens: number; contextWindow: number; percent: number } | null {
    if (!this.model) return null;
    const tokens = estimateContextTokens(this.context);
    const contextWindow = this.model.contextWindow;
    return { tokens, contextWindow, percent: Math.round((tokens / contextWindow) * 10000) / 100 };
  }

  async systemPrompt(): Promise<string> {
    return this.prompts.build(this.tools);
  }

  // ----- the loop's host side -----

  addMessage(message: AgentMessage, announced = false): void {
    if (!announced) this.sink.emit({ type: "message_start", message });
    this.store.append({ type: "message", message });
    this.context.push(message);
    this.sink.emit({ type: "message_end", message });
  }

  async buildRequest(): Promise<{ provider: Provider; request: ProviderRequest } | string> {
    const model = this.model;
    if (!model) {
      return "No model configured: add a provider to $NOVA_HOME/config.yml, set an API key such as ANTHROPIC_API_KEY, or pass --model provider/id.";
    }
    const entry = this.providersByName.get(model.provider);
    return {
      provider: getProvider(model.api),
      request: {
        model,
        auth: entry?.auth ?? {},
        systemPrompt: await this.systemPrompt(),
        messages: this.context,
        tools: this.tools.map((t) => ({ name: t.name, description: t.description, parameters: t.parameters })),
        thinkingLevel: this.thinkingLevel,
        idleTimeoutMs: this.options.config.stream.idleTimeoutMs,
      },
    };
  }

  findTool(name: string): Tool | undefined {
    return this.tools.find((t) => t.name === name);
  }

  toolNames(): string[] {
    return this.tools.map((t) => t.name);
  }

  toolContext(signal: AbortSignal, onUpdate: (partial: ToolResult) => void): ToolContext {
    return { cwd: this.cwd, signal, onUpdate, askPermission: this.askPermission, hasUI: this.options.mode === "rpc-ui" };
  }

  hasSteering(): boolean {
    return this.steering.length > 0;
  }

  takeSteering(): UserMessage[] {
    return this.take(this.steering, this.steeringMode);
  }

  takeFollowUp(): UserMessage[] {
    return this.take(this.followUp, this.followUpMode);
  }

  retrySettings(): RetrySettings | undefined {
    return this.autoRetry ? this.options.config.retry : undefined;
  }

  retryWaitSignal(turn: AbortSignal): AbortSignal {
    this.retryWait = new AbortController();
    return AbortSignal.any([turn, this.retryWait.signal]);
  }

  // ----- internals -----

  private start(initial: UserMessage[]): void {
    const controller = new AbortController();
    const run: Run = { controller, done: Promise.resolve() };
    this.run = run;
    // the loop starts on the next tick, so the command's response precedes agent_start
    run.done = new Promise((resolve) => setImmediate(resolve))
      .then(() => runLoop(this, initial, controller.signal))
      .finally(() => this.afterRun(run));
  }

  /** A message queued after the loop's last look starts the next run; otherwise the agent settles. */
  private afterRun(run: Run): void {
    if (this.run !== run) return;
    this.run = undefined;
    if (run.controller.signal.aborted) this.clearQueues();
    const next = this.steering.length > 0 ? this.takeSteering() : this.takeFollowUp();
    if (next.length > 0) return this.start(next);
    this.sink.emit({ type: "agent_settled" });
  }

  private enqueue(queue: UserMessage[], message: UserMessage): void {
    queue.push(message);
    this.emitQueue();
  }

  private take(queue: UserMessage[], mode: QueueMode): UserMessage[] {
    if (queue.length === 0) return [];
    const taken = mode === "all" ? queue.splice(0) : queue.splice(0, 1);
    this.emitQueue();
    return taken;
  }

  private emitQueue(): void {
    this.sink.emit({
      type: "queue_update",
      steering: this.steering.map(textOf),
      followUp: this.followUp.map(textOf),
      pendingMessageCount: this.pendingMessageCount,
    });
  }

  private newStore(): SessionStore {
    const options = { cwd: this.cwd };
    if (this.options.noSession) return SessionStore.inMemory(options);
    const dir = this.options.sessionDir ?? sessionDirFor(this.options.config.novaHome, this.cwd);
    return SessionStore.create(dir, { ...options, deferred: true });
  }
}

function userMessage(text: string, images: ImageContent[]): UserMessage {
  return {
    role: "user",
    content: images.length > 0 ? [{ type: "text", text }, ...images] : text,
    timestamp: Date.now(),
  };
}

function textOf(message: UserMessage): string {
  return typeof message.content === "string"
    ? message.content
    : message.content.flatMap((c) => (c.type === "text" ? [c.text] : [])).join("");
}
