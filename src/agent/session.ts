/**
 * AgentSession: the state a host steers (model, thinking, queues, modes,
 * conversation, session file) and the host side of the loop. Commands from
 * any front end (rpc, acp) arrive here as method calls; everything that
 * happens is reported through one sink.
 */
import type { Config } from "../config/load.ts";
import type { AgentMessage, BashExecutionMessage, ImageContent, UserMessage } from "../core/messages.ts";
import { runShell } from "../tools/bash.ts";
import type { AgentEvent, CompactionResult, EventSink } from "./events.ts";
import { thinkingLevels, type ThinkingLevel } from "../core/enums.ts";
import type { Model } from "../providers/types.ts";
import type { PermissionAsker, Tool, ToolContext } from "../tools/types.ts";
import { clampThinking, getProvider, supportedThinkingLevels } from "../providers/registry.ts";
import { builtinTools } from "../tools/index.ts";
import type { Sandbox } from "../sandbox/index.ts";
import { askTool } from "../tools/ask.ts";
import { todoTool } from "../tools/todo.ts";
import { TodoList, type TodoPhase } from "../core/todos.ts";
import { taskTool } from "../tools/task.ts";
import type { HostUi, HostUris, SubagentRunner } from "../host/services.ts";
import type { McpTools } from "../mcp/index.ts";
import { SessionStore, sessionDirFor, locateSession, exportHtml, makeRedactor, writeExport } from "../session/index.ts";
import { Compactor, type CompactorHost } from "./compactor.ts";
import { MessageQueues, textOf, userMessage, type QueueMode } from "./queues.ts";
import { PermissionRequests } from "./permission-requests.ts";
import { askInMode, type PermissionMode } from "./permission-mode.ts";
import { sessionStats } from "./stats.ts";
import { CommandError } from "./errors.ts";
import { estimateMessageTokens } from "./tokens.ts";
import { join, resolve } from "node:path";
import { runLoop, type LoopSeam, type ModelCall, type ToolServices } from "./loop.ts";
import { PromptBuilder } from "./prompt-builder.ts";
import { SessionCheckpoints } from "./checkpointing.ts";
import { estimateContextTokens } from "./tokens.ts";
import { sleep } from "./retry.ts";
import { blockText } from "../core/text.ts";
import { parseModelRef } from "../core/model-ref.ts";

export type { QueueMode };
export type InterruptMode = "immediate" | "wait";
export type StreamingBehavior = "steer" | "followUp";
/** What became of a prompt, steer or follow-up (Pi's PromptDisposition): a run started, or the message waits in a queue. */
export type Disposition = "started" | "queued";

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
  /** host services the tools use instead of the local disk and shell (ACP client fs/terminal) */
  clientServices?: Pick<ToolContext, "fs" | "terminal">;
  /** what the front end offers every conversation: dialogs, host URI schemes, host-defined tools */
  host?: { ui?: HostUi; uris?: HostUris; tools?: () => Tool[] };
  /** runs child agents for the `task` tool; absent in a child at the nesting limit */
  subagents?: (parent: AgentSession) => SubagentRunner | undefined;
  /** nesting depth of a child agent (0 = the host's own conversation) */
  depth?: number;
  /** only these built-in tools (a child agent's restricted set) */
  toolFilter?: string[];
  /** a child agent asks its parent's host */
  permissionAsker?: PermissionAsker;
  /** tools and prompts of MCP servers (config, RPC host, ACP editor); shared with child agents */
  mcp?: McpTools;
  /** --permission-mode; the config's permissions.mode otherwise */
  permissionMode?: PermissionMode;
  /** the OS sandbox the model's commands run in (absent: off) */
  sandbox?: Sandbox;
}


type Listener = (event: AgentEvent) => Promise<void> | undefined | void;

interface Run {
  controller: AbortController;
  done: Promise<void>;
}

export class AgentSession implements CompactorHost {
  model: Model | undefined;
  thinkingLevel: ThinkingLevel;
  interruptMode: InterruptMode = "immediate";
  autoCompaction: boolean;
  autoRetry: boolean;
  permissionMode: PermissionMode;
  store: SessionStore;
  readonly todos = new TodoList();
  private readonly ownTools: Tool[];
  /** rebuilt when login adds a secret */
  private redactor: { count: number; apply: (text: string) => string } | undefined;
  private remindersLeft = 1;

  private context: AgentMessage[] = [];
  private run: Run | undefined;
  private retryWait: AbortController | undefined;
  private userBash: AbortController | undefined;
  /** bash output that waits for the running turn to end before it joins the context */
  private pendingContext: AgentMessage[] = [];
  private listeners = new Set<Listener>();
  private readonly prompts: PromptBuilder;

  readonly sink: EventSink = {
    emit: (event) => {
      let full: Promise<void> | undefined;
      for (const listener of this.listeners) full = listener(event) ?? full;
      return full;
    },
  };
  readonly queues = new MessageQueues((state) => this.sink.emit({ type: "queue_update", ...state }));
  private readonly permissions = new PermissionRequests((request) => this.sink.emit({ type: "permission_request", ...request }));
  private readonly askByMode = askInMode(() => this.permissionMode, this.permissions.ask);
  private readonly compactor = new Compactor(this);
  readonly checkpoints = new SessionCheckpoints(this);

  constructor(readonly options: SessionOptions) {
    const { config } = options;
    this.model = this.initialModel();
    this.thinkingLevel = this.clamp(options.thinking ?? config.defaultThinkingLevel ?? "medium");
    this.autoCompaction = config.compaction.enabled;
    this.autoRetry = config.retry.enabled;
    this.permissionMode = options.permissionMode ?? config.permissionMode;
    const sandbox = options.sandbox?.status.active ? options.sandbox : undefined;
    const all = [...builtinTools({ permissions: config.permissions, sandbox }), ...(options.mode === "rpc-ui" ? [askTool] : []), todoTool];
    const only = options.toolFilter;
    this.ownTools = only ? all.filter((t) => only.includes(t.name)) : all;
    this.store = this.newStore();
    this.prompts = new PromptBuilder({
      cwd: options.cwd,
      novaHome: config.novaHome,
      custom: options.systemPrompt,
      append: options.appendSystemPrompt,
    });
  }

  // ----- wiring -----

  /** A listener that returns a promise is full: the stream relay waits for it. */
  subscribe(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Built-in tools, then the host's and the MCP servers'; re-read at every request so set_host_tools and list changes apply to the next call. */
  get tools(): Tool[] {
    const host = this.options.host?.tools?.() ?? [];
    const mcp = this.options.mcp?.tools() ?? [];
    const extra = mcp.length === 0 ? host : [...host, ...mcp];
    const task = this.subagentRunner && (!this.options.toolFilter || this.options.toolFilter.includes("task")) ? [taskTool] : [];
    return extra.length + task.length === 0 ? this.ownTools : [...this.ownTools, ...task, ...extra];
  }

  private get subagentRunner(): SubagentRunner | undefined {
    return this.options.subagents?.(this);
  }

  /** Every model the config declares; read live, since `login` can add a provider. */
  get models(): Model[] {
    return this.options.config.providers.flatMap((p) => p.models);
  }

  get steeringMode(): QueueMode {
    return this.queues.steeringMode;
  }

  set steeringMode(mode: QueueMode) {
    this.queues.steeringMode = mode;
  }

  get followUpMode(): QueueMode {
    return this.queues.followUpMode;
  }

  set followUpMode(mode: QueueMode) {
    this.queues.followUpMode = mode;
  }

  get isCompacting(): boolean {
    return this.compactor.isCompacting;
  }

  get keepRecentTokens(): number {
    return this.options.config.compaction.keepRecentTokens;
  }

  get isStreaming(): boolean {
    return this.run !== undefined;
  }

  get cwd(): string {
    return this.options.cwd;
  }

  // ----- prompting -----

  /** Starts a run, or queues the message when one is running (which then needs a behaviour). */
  prompt(text: string, images: ImageContent[], behavior?: StreamingBehavior): Disposition {
    if (this.run && !behavior) {
      throw new CommandError(
        'Agent is already processing. Specify streamingBehavior ("steer" or "followUp") to queue the message.',
      );
    }
    return this.startOrQueue(behavior ?? "followUp", userMessage(text, images));
  }

  steer(text: string, images: ImageContent[]): Disposition {
    return this.startOrQueue("steer", userMessage(text, images));
  }

  followUpMessage(text: string, images: ImageContent[]): Disposition {
    return this.startOrQueue("followUp", userMessage(text, images));
  }

  private startOrQueue(behavior: StreamingBehavior, message: UserMessage): Disposition {
    if (!this.run) {
      this.start([message]);
      return "started";
    }
    this.queues.push(behavior, message);
    return "queued";
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

  async abortAndPrompt(text: string, images: ImageContent[]): Promise<Disposition> {
    await this.abort();
    return this.prompt(text, images);
  }

  clearQueues(): { steering: string[]; followUp: string[] } {
    return this.queues.clear();
  }

  abortRetry(): void {
    this.retryWait?.abort();
  }

  /** Resolves once no run is active and nothing is queued. */
  async waitForIdle(): Promise<void> {
    while (this.run) await this.run.done;
  }

  get pendingMessageCount(): number {
    return this.queues.size;
  }

  // ----- permissions -----

  /** How tool calls ask for permission: a child agent asks through its parent. */
  get permissionAsker(): PermissionAsker {
    return this.options.permissionAsker ?? this.askByMode;
  }

  answerPermission(requestId: string | number, approved: boolean): void {
    this.permissions.answer(requestId, approved);
  }

  /** stdin closed: nobody can answer a permission request any more; pending and new ones fail with HostGone. */
  closePermissions(reason: string): void {
    this.permissions.close(reason);
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
      this.sink.emit({ type: "thinking_level_changed", level: clamped });
    }
    return clamped;
  }

  /** Every level without a model; otherwise what the model supports (xhigh and max only where declared). */
  availableThinkingLevels(): ThinkingLevel[] {
    return this.model ? supportedThinkingLevels(this.model) : [...thinkingLevels];
  }

  cycleThinkingLevel(): { level: ThinkingLevel } | null {
    const levels = this.availableThinkingLevels();
    if (levels.length < 2) return null;
    const next = levels[(levels.indexOf(this.thinkingLevel) + 1) % levels.length];
    return { level: this.setThinkingLevel(next) };
  }

  private applyModel(model: Model): void {
    this.model = model;
    const level = this.clamp(this.thinkingLevel);
    this.store.append({ type: "model_change", provider: model.provider, modelId: model.id });
    if (level !== this.thinkingLevel) {
      this.thinkingLevel = level;
      this.sink.emit({ type: "thinking_level_changed", level });
    }
  }

  private clamp(level: ThinkingLevel): ThinkingLevel {
    return this.model ? clampThinking(level, this.model) : level;
  }

  private initialModel(): Model | undefined {
    const { model } = this.options;
    if (model) return this.findModel(model.provider, model.id);
    const preferred = this.options.config.defaultModel;
    if (preferred) {
      const { provider, id } = parseModelRef(preferred);
      const found = this.findModel(provider, id);
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
    this.sink.emit({ type: "session_info_changed", name: trimmed });
  }

  lastAssistantText(): string | null {
    for (let i = this.context.length - 1; i >= 0; i--) {
      const m = this.context[i];
      if (m.role !== "assistant") continue;
      const text = blockText(m.content);
      if (text.trim()) return text;
    }
    return null;
  }

  /**
   * Tokens the context holds. The provider's last usage is exact, but after a
   * compaction the kept assistant messages still report the old, larger size,
   * so until a new answer arrives everything is estimated.
   */
  contextTokens(): number {
    const first = this.context[0];
    if (first?.role === "compactionSummary") {
      const fresh = this.context.some((m) => m.role === "assistant" && m.timestamp > first.timestamp && m.stopReason !== "error" && m.stopReason !== "aborted");
      if (!fresh) return this.context.reduce((n, m) => n + estimateMessageTokens(m), 0);
    }
    return estimateContextTokens(this.context);
  }

  contextUsage(): { tokens: number; contextWindow: number; percent: number } | null {
    if (!this.model) return null;
    const tokens = this.contextTokens();
    const contextWindow = this.model.contextWindow;
    return { tokens, contextWindow, percent: Math.round((tokens / contextWindow) * 10000) / 100 };
  }

  async systemPrompt(): Promise<string> {
    return this.prompts.build(this.tools);
  }

  // ----- the loop's host side -----

  private loopSeam(): LoopSeam {
    const { queues } = this;
    return {
      emit: this.sink.emit,
      messages: () => this.context,
      request: () => this.buildRequest(),
      append: (message) => this.appendQuietly(message),
      tools: this.toolServices(),
      hooks: {
        steering: () => queues.takeSteering(),
        interrupts: () => this.interruptMode === "immediate" && queues.hasSteering,
        followUp: () => queues.takeFollowUp(),
        beforeStop: () => this.beforeStop(),
        beforeTool: (tool, args) => this.checkpoints.beforeTool(tool, args),
        afterTools: (message) => this.checkpoints.afterTools(message),
        beforeRequest: (signal) => this.beforeRequest(signal),
        onContextOverflow: (signal) => this.onContextOverflow(signal),
        redact: (text) => this.redact(text),
        retry: () => (this.autoRetry ? this.options.config.retry : undefined),
        sleep: (ms, signal) => {
          this.retryWait = new AbortController();
          return sleep(ms, AbortSignal.any([signal, this.retryWait.signal]));
        },
      },
    };
  }

  async buildRequest(): Promise<ModelCall | string> {
    const model = this.model;
    if (!model) {
      return "No model configured: add a provider to $NOVA_HOME/config.yml, set an API key such as ANTHROPIC_API_KEY, or pass --model provider/id (--model scripted/demo needs no key).";
    }
    const entry = this.options.config.providers.find((p) => p.name === model.provider);
    const tools = this.tools;
    return {
      provider: getProvider(model.api),
      tools,
      request: {
        model,
        auth: entry?.auth ?? {},
        systemPrompt: await this.systemPrompt(),
        messages: this.context,
        tools: tools.map((t) => ({ name: t.name, description: t.description, parameters: t.parameters })),
        thinkingLevel: this.thinkingLevel,
        idleTimeoutMs: this.options.config.stream.idleTimeoutMs,
        maxLineBytes: this.options.config.stream.maxLineBytes,
      },
    };
  }

  private toolServices(): ToolServices {
    const host = this.options.host;
    return {
      cwd: this.cwd,
      askPermission: this.permissionAsker,
      hasUI: this.options.mode === "rpc-ui",
      host: { ui: this.options.mode === "rpc-ui" ? host?.ui : undefined, uris: host?.uris, todos: this.todos, subagents: this.subagentRunner },
      ...this.options.clientServices,
    };
  }

  /**
   * When the model would stop with todos still open, it is reminded once per
   * prompt; when every task is done, the list clears itself at the run's end.
   */
  beforeStop(): UserMessage[] {
    const open = this.todos.open();
    if (open.length === 0 || this.remindersLeft <= 0) return [];
    this.remindersLeft--;
    this.sink.emit({ type: "todo_reminder", todos: open, phases: this.todos.get() });
    const list = open.map((t) => `- ${t.content} (${t.status})`).join("\n");
    return [userMessage(`Reminder: these todo items are still open:\n${list}\nContinue with them, or update the todo list if they are done or no longer needed.`, [])];
  }

  setTodos(phases: TodoPhase[]): TodoPhase[] {
    return this.todos.set(phases);
  }

  redact(text: string): string {
    const secrets = this.options.config.secrets;
    if (this.redactor?.count !== secrets.length) this.redactor = { count: secrets.length, apply: makeRedactor(secrets) };
    return this.redactor.apply(text);
  }

  // ----- the user's own shell commands -----

  /**
   * Runs a command the user typed (not the model): never gated by permission
   * rules. Its output joins the context as a bashExecution message, which the
   * model sees with the next prompt; during a turn it waits for the turn's end.
   */
  async bash(command: string, excludeFromContext = false, id?: string) {
    if (this.userBash) throw new CommandError("A bash command is already running; send abort_bash to stop it.");
    const controller = new AbortController();
    this.userBash = controller;
    const decoder = new TextDecoder();
    const onChunk = (chunk: Uint8Array) => {
      const delta = decoder.decode(chunk, { stream: true });
      if (delta) this.sink.emit({ type: "bash_execution_update", ...(id === undefined ? {} : { id }), delta });
    };
    try {
      const result = await runShell(command, { cwd: this.cwd, signal: controller.signal, usePty: false, onChunk });
      const message: BashExecutionMessage = {
        role: "bashExecution",
        command,
        // the user's output joins the model's context like a tool result: the same secrets are removed
        output: this.redact(result.output),
        exitCode: result.exitCode ?? undefined,
        cancelled: result.cancelled,
        truncated: result.truncated,
        fullOutputPath: result.fullOutputPath,
        timestamp: Date.now(),
      };
      // an excluded result is kept in the file (as Pi does) but never reaches the model
      if (excludeFromContext) message.excludeFromContext = true;
      if (this.run) this.pendingContext.push(message);
      else this.appendQuietly(message);
      const { output, exitCode, cancelled, truncated, fullOutputPath } = message;
      return { output, exitCode, cancelled, truncated, fullOutputPath };
    } finally {
      this.userBash = undefined;
    }
  }

  abortBash(): void {
    this.userBash?.abort();
  }

  /** Context that is not announced as an event (Pi sends none for bash output). */
  private appendQuietly(message: AgentMessage): void {
    this.store.append({ type: "message", message });
    this.context.push(message);
  }

  // ----- sessions -----

  newSession(parentSession?: string): { cancelled: boolean } {
    if (this.run) throw new CommandError("Cannot start a new session while the agent is streaming; abort first or pass background:true.");
    this.clearQueues();
    this.store.close();
    this.store = this.newStore(parentSession ?? (this.store.written ? this.store.path : undefined));
    this.context = [];
    return { cancelled: false };
  }

  async switchSession(target: { sessionId?: string; sessionPath?: string }): Promise<{ cancelled: boolean }> {
    if (this.run) throw new CommandError("Cannot switch sessions while the agent is streaming; abort or wait for agent_end.");
    if (!target.sessionId && !target.sessionPath) throw new CommandError("switch_session needs sessionId or sessionPath");
    const path = await locateSession(target, {
      cwd: this.cwd,
      sessionDir: this.options.sessionDir,
      sessionsRoot: join(this.options.config.novaHome, "sessions"),
    });
    if (!path) throw new CommandError(`Session not found: ${target.sessionId}`);
    const { store, warnings } = await SessionStore.open(path);
    for (const warning of warnings) process.stderr.write(`nova: ${warning}\n`);
    this.clearQueues();
    this.store.close();
    this.store = store;
    this.restoreFromStore();
    return { cancelled: false };
  }

  /**
   * Continues from an earlier entry; the old branch stays in the file. At a
   * user message (Pi's fork) the leaf moves to just before it and its text is
   * returned, so the host can offer it for editing.
   */
  branch(entryId: string): { text: string; cancelled: boolean } {
    if (this.run) throw new CommandError("Cannot branch while the agent is streaming; abort or wait for agent_end.");
    const entry = this.store.getEntry(entryId);
    if (!entry) throw new CommandError(`Unknown entryId "${entryId}": no entry in session ${this.store.sessionId} has it`);
    let text = "";
    if (entry.type === "message" && entry.message.role === "user") {
      text = userText(entry.message);
      if (entry.parentId) this.store.branch(entry.parentId);
      else this.store = this.rootBranch();
    } else this.store.branch(entryId);
    this.reloadContext();
    return { text, cancelled: false };
  }

  /**
   * Copies the current branch into a new session file (Pi's `clone`): the
   * copy continues from here; the original stays as it was.
   */
  clone(): { cancelled: boolean } {
    if (this.run) throw new CommandError("Cannot clone while the agent is streaming; abort or wait for agent_end.");
    const path = this.store.pathToLeaf();
    const name = this.store.name;
    const parent = this.store.written ? this.store.path : undefined;
    this.store.close();
    this.store = this.newStore(parent);
    this.store.appendCopy(path);
    if (name && this.store.name !== name) this.store.append({ type: "session_info", name });
    this.reloadContext();
    return { cancelled: false };
  }

  /** The user messages on the current path, the points a host can branch from. */
  branchMessages(): { messages: { entryId: string; text: string }[] } {
    const messages = [];
    for (const entry of this.store.pathToLeaf()) {
      if (entry.type === "message" && entry.message.role === "user") messages.push({ entryId: entry.id, text: userText(entry.message) });
    }
    return { messages };
  }

  sessionStats() {
    const contextUsage = this.contextUsage();
    return { ...sessionStats(this.context, { path: this.store.path, sessionId: this.store.sessionId }), ...(contextUsage ? { contextUsage } : {}) };
  }

  async exportHtml(outputPath?: string): Promise<{ path: string }> {
    const path = resolve(this.cwd, outputPath ?? `nova-session-${this.store.sessionId.slice(0, 8)}.html`);
    const html = exportHtml(
      {
        messages: this.context,
        sessionId: this.store.sessionId,
        name: this.store.name,
        cwd: this.cwd,
        model: this.model ? { provider: this.model.provider, modelId: this.model.id } : undefined,
      },
      { secrets: this.options.config.secrets },
    );
    await writeExport(path, html);
    return { path };
  }

  /**
   * Summarises this session into a new one that continues the work: the new
   * session starts with the summary (a branch_summary entry pointing back here).
   */
  async handoff(customInstructions?: string) {
    if (this.run) throw new CommandError("Cannot hand off while the agent is streaming; abort or wait for agent_end.");
    if (this.context.length === 0) throw new CommandError("Nothing to hand off: the session has no messages.");
    const summary = await this.compactor.handoffSummary(this.context, customInstructions);
    const fromId = this.store.sessionId;
    this.newSession();
    this.store.append({ type: "branch_summary", fromId, summary });
    this.reloadContext();
    return { cancelled: false, sessionId: this.store.sessionId, sessionFile: this.store.path, parentSession: this.store.header.parentSession, summary };
  }

  // ----- compaction -----

  /** Summarises the older part of the context into a compaction entry. */
  async compact(customInstructions?: string): Promise<CompactionResult> {
    if (this.run) throw new CommandError("Cannot compact while the agent is streaming; abort or wait for agent_end.");
    return this.compactor.compact("manual", customInstructions, new AbortController().signal);
  }

  async beforeRequest(signal: AbortSignal): Promise<void> {
    await this.options.mcp?.beforeRequest(signal);
    if (!this.autoCompaction || !this.model) return;
    const limit = this.model.contextWindow - this.options.config.compaction.reserveTokens;
    if (this.contextTokens() > limit) await this.compactor.auto("threshold", signal);
  }

  async onContextOverflow(signal: AbortSignal): Promise<boolean> {
    return this.autoCompaction && this.compactor.auto("overflow", signal);
  }

  /** Rebuilds the context from the session file's current path. */
  reloadContext(): void {
    this.context = this.store.buildContext().messages;
  }

  /** A session switched to brings back its model and thinking level too. */
  private restoreFromStore(): void {
    const context = this.store.buildContext();
    this.context = context.messages;
    const model = context.model && this.findModel(context.model.provider, context.model.modelId);
    if (model) this.model = model;
    if (context.thinkingLevel) this.thinkingLevel = this.clamp(context.thinkingLevel);
  }

  /** Branching before the first entry: a fresh file that remembers where it came from. */
  private rootBranch(): SessionStore {
    const parent = this.store.written ? this.store.path : undefined;
    this.store.close();
    return this.newStore(parent);
  }

  // ----- internals -----

  private start(initial: UserMessage[]): void {
    this.remindersLeft = 1;
    const controller = new AbortController();
    const run: Run = { controller, done: Promise.resolve() };
    this.run = run;
    // the loop starts on the next tick, so the command's response precedes agent_start
    run.done = new Promise((resolve) => setImmediate(resolve))
      .then(() => runLoop(this.loopSeam(), initial, controller.signal))
      .finally(() => this.afterRun(run));
  }

  /** A message queued after the loop's last look starts the next run; otherwise the agent settles. */
  private afterRun(run: Run): void {
    if (this.run !== run) return;
    this.run = undefined;
    for (const message of this.pendingContext.splice(0)) this.appendQuietly(message);
    if (run.controller.signal.aborted) this.queues.clear();
    const next = this.queues.hasSteering ? this.queues.takeSteering() : this.queues.takeFollowUp();
    if (next.length > 0) return this.start(next);
    if (this.todos.finished()) {
      const phases = this.todos.get();
      this.todos.clear();
      this.sink.emit({ type: "todo_auto_clear", phases });
    }
    this.sink.emit({ type: "agent_settled", aborted: run.controller.signal.aborted });
  }

  private newStore(parentSession?: string): SessionStore {
    const options = parentSession ? { cwd: this.cwd, parentSession } : { cwd: this.cwd };
    if (this.options.noSession) return SessionStore.inMemory(options);
    const dir = this.options.sessionDir ?? sessionDirFor(this.options.config.novaHome, this.cwd);
    return SessionStore.create(dir, { ...options, deferred: true });
  }
}

function userText(message: AgentMessage): string {
  return message.role === "user" ? textOf(message) : "";
}
