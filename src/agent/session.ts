/**
 * AgentSession: the conversation a host steers. It holds the context, the
 * queues and the modes, starts runs of the loop and reports everything
 * through one sink; model choice, the toolbox, the user's bash and the
 * session file live in their own files and are reached through it. The front
 * end hands in capabilities (a UI, `ask`, how to ask for permission), never
 * its name.
 */
import type { AgentMessage, ImageContent, UserMessage } from "../core/messages.ts";
import type { ThinkingLevel } from "../core/enums.ts";
import { TodoList, type TodoPhase } from "../core/todos.ts";
import type { Model } from "../providers/types.ts";
import type { PermissionAsker, Tool } from "../tools/types.ts";
import { makeRedactor, type SessionStore } from "../session/index.ts";
import type { AgentEvent, CompactionResult, EventSink } from "./events.ts";
import { Compactor } from "./compactor.ts";
import { MessageQueues, userMessage, type QueueMode } from "./queues.ts";
import { PermissionRequests, type PermissionAnswer } from "./permission-requests.ts";
import { PLAN_MODE_PROMPT, type PermissionMode } from "./permission-mode.ts";
import { PermissionGate } from "./permission-gate.ts";
import { CommandError } from "./errors.ts";
import { contextTokens } from "./tokens.ts";
import { modelCall } from "./model-call.ts";
import { runLoop, type LoopSeam, type ModelCall } from "./loop.ts";
import { PromptBuilder } from "./prompt-builder.ts";
import { SessionCheckpoints } from "./checkpointing.ts";
import { sleep } from "./retry.ts";
import { blockText } from "../core/text.ts";
import { ModelChoice } from "./model-choice.ts";
import { Toolbox, type Capabilities } from "./toolbox.ts";
import type { SessionOptions } from "./session-options.ts";
import { UserBash } from "./user-bash.ts";
import { SessionFiles } from "./session-files.ts";
import { TodoReminders } from "./todo-reminders.ts";
import { permissionChannel } from "./permission-prompt.ts";
import { SessionHooks } from "./session-hooks.ts";
import { RunControls, type RunOptions } from "./run-options.ts";
import type { Budget } from "./budget.ts";

export type { QueueMode, Capabilities, SessionOptions, RunOptions };
export type InterruptMode = "immediate" | "wait";
export type StreamingBehavior = "steer" | "followUp";
/** What became of a prompt, steer or follow-up (Pi's PromptDisposition): a run started, or the message waits in a queue. */
export type Disposition = "started" | "queued";

type Listener = (event: AgentEvent) => Promise<void> | undefined | void;

interface Run {
  controller: AbortController;
  done: Promise<void>;
  /** budgets and output schema, when the run has either */
  controls?: RunControls;
}

export class AgentSession {
  interruptMode: InterruptMode = "immediate";
  autoCompaction: boolean;
  autoRetry: boolean;
  private mode: PermissionMode;
  readonly todos = new TodoList((phases) => this.sink.emit({ type: "todos_changed", phases }));
  readonly choice: ModelChoice;
  readonly toolbox: Toolbox;
  readonly files: SessionFiles;
  /** the user's own shell commands; during a turn their output waits for the turn's end */
  readonly userBash: UserBash;
  context: AgentMessage[] = [];
  /** rebuilt when login adds a secret */
  private redactor: { count: number; apply: (text: string) => string } | undefined;
  private readonly reminders: TodoReminders;
  private run: Run | undefined;
  private retryWait: AbortController | undefined;
  private pendingContext: AgentMessage[] = [];
  private listeners = new Set<Listener>();
  private readonly prompts: PromptBuilder;
  /** the options a queued prompt or follow-up carries into the run it starts or is delivered in */
  private readonly runOptions = new WeakMap<UserMessage, RunOptions>();

  readonly sink: EventSink = {
    emit: (event) => {
      let full: Promise<void> | undefined;
      for (const listener of this.listeners) full = listener(event) ?? full;
      return full;
    },
  };
  readonly queues = new MessageQueues((state) => this.sink.emit({ type: "queue_update", ...state }));
  private readonly permissions = new PermissionRequests(
    (request) => this.sink.emit({ type: "permission_request", ...request }),
    (requestId, reason) => this.sink.emit({ type: "permission_cancelled", requestId, reason }),
  );
  /** decides every tool call; a child agent shares its parent's */
  readonly permissionGate: PermissionGate;
  private readonly compactor: Compactor;
  readonly checkpoints: SessionCheckpoints;
  /** the config's hooks; undefined (and never loaded) without any */
  private readonly hooks: SessionHooks | undefined;

  constructor(readonly options: SessionOptions) {
    const { config } = options;
    const busy = () => this.run !== undefined;
    this.choice = new ModelChoice(config, options, { record: (entry) => this.store.append(entry), emit: this.sink.emit, busy });
    this.autoCompaction = config.compaction.enabled;
    this.autoRetry = config.retry.enabled;
    this.mode = options.permissionMode ?? config.permissionMode;
    // the front end's own channel (ACP), else permissions.prompt decides how to ask
    const channel =
      options.host?.askPermission ?? permissionChannel(options.permissionPrompt ?? "request", { request: this.permissions.ask, ui: options.host?.confirmUi ?? options.host?.ui });
    this.permissionGate =
      options.permissionGate ??
      new PermissionGate({
        cwd: options.cwd,
        config,
        mode: () => this.mode,
        channel,
        warn: (text) => process.stderr.write(`nova: warning: ${text}\n`),
      });
    this.toolbox = new Toolbox(options, this.todos, () => options.subagents?.(this));
    this.userBash = new UserBash(
      options.cwd,
      this.sink.emit,
      (message) => (this.run ? this.pendingContext.push(message) : this.appendQuietly(message)),
      (text) => this.redact(text),
    );
    this.files = new SessionFiles(options, this);
    this.compactor = new Compactor(this);
    this.checkpoints = new SessionCheckpoints(this);
    this.reminders = new TodoReminders(this.todos, this.sink.emit);
    const sandbox = options.sandbox?.status.active ? options.sandbox : undefined;
    this.hooks = SessionHooks.create(
      config.hooks,
      {
        cwd: options.cwd,
        sessionId: () => this.store.sessionId,
        transcriptPath: () => this.store.path,
        mode: () => this.permissionMode,
        sandbox,
        emit: this.sink.emit,
      },
      !options.depth,
    );
    this.prompts = new PromptBuilder({
      cwd: options.cwd,
      novaHome: config.novaHome,
      custom: options.systemPrompt,
      append: options.appendSystemPrompt,
      noContextFiles: options.noContextFiles,
      noSkills: options.noSkills,
    });
  }

  /** A listener that returns a promise is full: the stream relay waits for it. */
  subscribe(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  get store(): SessionStore {
    return this.files.store;
  }

  get model(): Model | undefined {
    return this.choice.model;
  }

  set model(model: Model | undefined) {
    this.choice.model = model;
  }

  get thinkingLevel(): ThinkingLevel {
    return this.choice.thinkingLevel;
  }

  set thinkingLevel(level: ThinkingLevel) {
    this.choice.thinkingLevel = level;
  }

  /** Built-in tools, then `task`, then the host's and the MCP servers'; re-read at every request. */
  get tools(): Tool[] {
    return this.toolbox.all;
  }

  get keepRecentTokens(): number {
    return this.options.config.compaction.keepRecentTokens;
  }

  reloadContext(): void {
    this.files.reloadContext();
  }

  /** The summary a handoff starts the next session from. */
  handoffSummary(messages: AgentMessage[], customInstructions: string | undefined): Promise<string> {
    return this.compactor.handoffSummary(messages, customInstructions);
  }

  get isCompacting(): boolean {
    return this.compactor.isCompacting;
  }

  get isStreaming(): boolean {
    return this.run !== undefined;
  }

  get cwd(): string {
    return this.options.cwd;
  }

  /** How tool calls ask for permission: a child agent asks through its parent's gate, marked with its id. */
  get permissionAsker(): PermissionAsker {
    return this.permissionGate.asker(this.options.agentId);
  }

  /** A child agent follows its parent's mode. */
  get permissionMode(): PermissionMode {
    return this.options.permissionGate?.mode ?? this.mode;
  }

  /** Setting a different mode announces it (permission_mode_changed). */
  set permissionMode(mode: PermissionMode) {
    if (mode === this.mode) return;
    this.mode = mode;
    this.sink.emit({ type: "permission_mode_changed", mode });
  }

  // ----- prompting -----

  /** Starts a run, or queues the message when one is running (which then needs a behaviour). */
  prompt(text: string, images: ImageContent[], behavior?: StreamingBehavior, options?: RunOptions): Disposition {
    if (this.run && !behavior) throw new CommandError('Agent is already processing. Specify streamingBehavior ("steer" or "followUp") to queue the message.');
    return this.enqueue(behavior ?? "followUp", text, images, options);
  }

  /** steer / follow_up: queued while a run streams, a run of their own otherwise. */
  enqueue(kind: StreamingBehavior, text: string, images: ImageContent[], options?: RunOptions): Disposition {
    const message = userMessage(text, images);
    if (options) this.runOptions.set(message, options);
    if (this.run) return (this.queues.push(kind, message), "queued");
    this.start([message]);
    return "started";
  }

  /** Cancels the turn (fetch, tools, retry wait, permission prompts) and clears the queues. */
  async abort(): Promise<void> {
    const run = this.run;
    this.compactor.abort();
    this.queues.clear();
    if (!run) return;
    run.controller.abort();
    await run.done;
  }

  abortRetry(): void {
    this.retryWait?.abort();
  }

  /** Resolves once no run is active and nothing is queued. */
  async waitForIdle(): Promise<void> {
    while (this.run) await this.run.done;
  }

  answerPermission(requestId: string | number, answer: PermissionAnswer): void {
    this.permissions.answer(requestId, answer);
  }

  /** stdin closed: nobody can answer a permission request any more; pending and new ones fail with HostGone. */
  closePermissions(reason: string): void {
    this.permissions.close(reason);
  }

  // ----- state -----

  messages(): AgentMessage[] {
    return this.context;
  }

  setSessionName(name: string): void {
    const trimmed = name.trim();
    if (!trimmed) throw new CommandError("Session name cannot be empty");
    this.store.append({ type: "session_info", name: trimmed });
    this.sink.emit({ type: "session_info_changed", name: trimmed });
  }

  lastAssistantText(): string | null {
    for (let i = this.context.length - 1; i >= 0; i--) {
      const m = this.context[i]!;
      const text = m.role === "assistant" ? blockText(m.content) : "";
      if (text.trim()) return text;
    }
    return null;
  }

  contextTokens(): number {
    return contextTokens(this.context);
  }

  contextUsage(): { tokens: number; contextWindow: number; percent: number } | null {
    if (!this.model) return null;
    const tokens = this.contextTokens();
    const contextWindow = this.model.contextWindow;
    return { tokens, contextWindow, percent: Math.round((tokens / contextWindow) * 10000) / 100 };
  }

  async systemPrompt(): Promise<string> {
    const prompt = await this.prompts.build(this.tools);
    return this.permissionMode === "plan" ? `${prompt}\n\n${PLAN_MODE_PROMPT}` : prompt;
  }

  setTodos(phases: TodoPhase[]): TodoPhase[] {
    return this.todos.set(phases, true);
  }

  /** Summarises the older part of the context into a compaction entry. */
  async compact(customInstructions?: string): Promise<CompactionResult> {
    if (this.run) throw new CommandError("Cannot compact while the agent is streaming; abort or wait for agent_end.");
    return this.compactor.compact("manual", customInstructions, new AbortController().signal);
  }

  // ----- runs -----

  buildRequest(): Promise<ModelCall | string> {
    const { config } = this.options;
    this.choice.adoptDiscovered();
    const systemPrompt = () => this.systemPrompt();
    const output = this.run?.controls?.structured;
    return modelCall({
      config,
      model: this.model,
      thinkingLevel: this.thinkingLevel,
      tools: this.tools,
      systemPrompt,
      messages: this.context,
      output,
      cacheKey: this.store.sessionId,
    });
  }

  /** What the running prompt's sub-agents charge: its budget, when it has one. */
  get runBudget(): Budget | undefined {
    return this.run?.controls?.sharedBudget;
  }

  private loopSeam(run: Run): LoopSeam {
    const { queues, options } = this;
    /** queued messages reach the run; options they carry apply from now on */
    const delivered = (messages: UserMessage[]) => {
      for (const message of messages) {
        const carried = this.runOptions.get(message);
        if (!carried) continue;
        if (run.controls) run.controls.adopt(carried);
        else run.controls = RunControls.for(carried, options.config, this.sink.emit, options.budget);
      }
      return messages;
    };
    return {
      emit: this.sink.emit,
      messages: () => this.context,
      request: () => this.buildRequest(),
      append: (message) => {
        this.appendQuietly(message);
        if (message.role === "assistant") run.controls?.charge(message);
      },
      tools: this.toolbox.services(this.permissionAsker, {
        sessionId: this.store.sessionId,
        sessionFile: this.store.path,
        provider: this.model?.provider,
        model: this.model?.id,
        thinkingLevel: this.thinkingLevel,
      }),
      hooks: {
        steering: () => delivered(queues.takeSteering()),
        interrupts: () => this.interruptMode === "immediate" && queues.hasSteering,
        followUp: () => delivered(queues.takeFollowUp()),
        beforeStop: async () => {
          const reminders = this.reminders.beforeStop();
          if (reminders.length > 0) return reminders;
          if (run.controls) {
            const more = run.controls.beforeStop(this.context.findLast((m) => m.role === "assistant"));
            if (more.length > 0) return more;
          }
          return this.hooks ? this.hooks.beforeStop() : [];
        },
        limit: () => run.controls?.limit(),
        turnOutput: (message) => run.controls?.turnOutput(message),
        done: () => run.controls?.done() ?? false,
        outcome: () => run.controls?.outcome() ?? {},
        gate: async (tool, args, toolCallId, signal) => {
          const hook = this.hooks ? await this.hooks.preToolUse(tool, args, toolCallId) : { args };
          if (hook.refused) return { refused: hook.refused };
          const hostPath = (path: string) => options.host?.uris?.schemeOf(path) !== undefined;
          const facts = { toolCallId, origin: this.toolbox.originOf(tool), agentId: options.agentId, hostPath, allow: hook.allow, ask: hook.ask };
          const verdict = await this.permissionGate.check(tool, hook.args, facts, signal);
          return "refused" in verdict ? verdict : { args: hook.args, approved: verdict.approved };
        },
        ...(this.hooks ? { afterTool: this.hooks.postToolUse.bind(this.hooks) } : {}),
        beforeTool: (tool, args) => this.checkpoints.beforeTool(tool, args),
        afterTools: (message) => this.checkpoints.afterTools(message),
        beforeRequest: async (signal) => {
          await options.mcp?.beforeRequest(signal);
          const limit = this.model && this.model.contextWindow - options.config.compaction.reserveTokens;
          if (this.autoCompaction && limit !== undefined && this.contextTokens() > limit) await this.compactor.auto("threshold", signal);
        },
        onContextOverflow: async (signal) => this.autoCompaction && this.compactor.auto("overflow", signal),
        redact: (text) => this.redact(text),
        retry: () => (this.autoRetry ? options.config.retry : undefined),
        sleep: (ms, signal) => {
          this.retryWait = new AbortController();
          return sleep(ms, AbortSignal.any([signal, this.retryWait.signal]));
        },
      },
    };
  }

  redact(text: string): string {
    const secrets = this.options.config.secrets;
    if (this.redactor?.count !== secrets.length) this.redactor = { count: secrets.length, apply: makeRedactor(secrets) };
    return this.redactor.apply(text);
  }

  /** Context that is not announced as an event (Pi sends none for bash output). */
  private appendQuietly(message: AgentMessage): void {
    this.store.append({ type: "message", message });
    this.context.push(message);
  }

  private start(initial: UserMessage[]): void {
    this.reminders.arm();
    const controller = new AbortController();
    const { config, budget } = this.options;
    const first = initial[0];
    const run: Run = { controller, done: Promise.resolve(), controls: RunControls.for(first && this.runOptions.get(first), config, this.sink.emit, budget) };
    this.run = run;
    // the loop starts on the next tick, so the command's response precedes agent_start
    run.done = new Promise((resolve) => setImmediate(resolve))
      .then(() => this.beforeRun(initial))
      .then((messages) => messages && runLoop(this.loopSeam(run), messages, controller.signal))
      .finally(() => this.afterRun(run));
  }

  /** SessionStart's context and UserPromptSubmit hooks; undefined when a hook blocked the prompt (no run then). */
  private async beforeRun(initial: UserMessage[]): Promise<UserMessage[] | undefined> {
    if (!this.hooks) return initial;
    const outcome = await this.hooks.beforeRun(initial);
    if ("messages" in outcome) return outcome.messages;
    this.sink.emit({ type: "prompt_blocked", reason: outcome.blocked });
    return undefined;
  }

  /** A message queued after the loop's last look starts the next run; otherwise the agent settles. */
  private afterRun(run: Run): void {
    if (this.run !== run) return;
    this.run = undefined;
    for (const message of this.pendingContext.splice(0)) this.appendQuietly(message);
    if (run.controller.signal.aborted) this.queues.clear();
    const next = this.queues.hasSteering ? this.queues.takeSteering() : this.queues.takeFollowUp();
    if (next.length > 0) return this.start(next);
    this.reminders.settle();
    this.sink.emit({ type: "agent_settled", aborted: run.controller.signal.aborted });
  }
}
