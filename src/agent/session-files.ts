/**
 * The session file behind a conversation and every operation on it: new,
 * switch, branch, clone, handoff, export, stats. Each one leaves the context
 * rebuilt from the file's current path. None runs while a turn streams.
 */
import { join, resolve } from "node:path";
import type { Config } from "../config/load.ts";
import type { AgentMessage } from "../core/messages.ts";
import { blockText } from "../core/text.ts";
import { SessionStore, exportHtml, locateSession, sessionDirFor, writeExport } from "../session/index.ts";
import { CommandError } from "./errors.ts";
import type { ModelChoice } from "./model-choice.ts";
import { sessionStats } from "./stats.ts";

export interface FilesOptions {
  config: Config;
  cwd: string;
  sessionDir?: string;
  noSession: boolean;
}

/** What the operations change in the conversation that owns the file. */
export interface FilesHost {
  readonly isStreaming: boolean;
  readonly queues: { clear(): unknown };
  context: AgentMessage[];
  readonly choice: ModelChoice;
  contextUsage(): { tokens: number; contextWindow: number; percent: number } | null;
  /** the summary a handoff starts the next session from */
  handoffSummary(messages: AgentMessage[], customInstructions: string | undefined): Promise<string>;
}

const idle = (host: FilesHost, what: string) => {
  if (host.isStreaming) throw new CommandError(`Cannot ${what} while the agent is streaming; abort or wait for agent_end.`);
};

export class SessionFiles {
  store: SessionStore;

  constructor(
    private readonly options: FilesOptions,
    private readonly host: FilesHost,
  ) {
    this.store = this.create();
  }

  newSession(parentSession?: string): { cancelled: boolean } {
    if (this.host.isStreaming) throw new CommandError("Cannot start a new session while the agent is streaming; abort first or pass background:true.");
    this.host.queues.clear();
    this.replace(this.create(parentSession ?? this.parent()));
    this.host.context = [];
    return { cancelled: false };
  }

  /** A session switched to brings back its model and thinking level too. */
  async switchSession(target: { sessionId?: string; sessionPath?: string }): Promise<{ cancelled: boolean }> {
    idle(this.host, "switch sessions");
    if (!target.sessionId && !target.sessionPath) throw new CommandError("switch_session needs sessionId or sessionPath");
    const { config, cwd, sessionDir } = this.options;
    const path = await locateSession(target, { cwd, sessionDir, sessionsRoot: join(config.novaHome, "sessions") });
    if (!path) throw new CommandError(`Session not found: ${target.sessionId}`);
    const { store, warnings } = await SessionStore.open(path);
    for (const warning of warnings) process.stderr.write(`nova: ${warning}\n`);
    this.adoptStore(store);
    return { cancelled: false };
  }

  /**
   * Continues in `store` (switch_session, or the session the command line
   * names); with `keepModel` a model chosen on the command line wins over
   * the one the file last used.
   */
  adoptStore(store: SessionStore, keepModel = false): void {
    this.host.queues.clear();
    this.replace(store);
    const context = store.buildContext();
    this.host.context = context.messages;
    if (!keepModel) this.host.choice.restore(context);
  }

  /**
   * Continues from an earlier entry; the old branch stays in the file. At a
   * user message (Pi's fork) the leaf moves to just before it and its text is
   * returned, so the host can offer it for editing.
   */
  branch(entryId: string): { text: string; cancelled: boolean } {
    idle(this.host, "branch");
    const entry = this.store.getEntry(entryId);
    if (!entry) throw new CommandError(`Unknown entryId "${entryId}": no entry in session ${this.store.sessionId} has it`);
    let text = "";
    if (entry.type === "message" && entry.message.role === "user") {
      text = blockText(entry.message.content);
      // branching before the first entry: a fresh file that remembers where it came from
      if (entry.parentId) this.store.branch(entry.parentId);
      else this.replace(this.create(this.parent()));
    } else this.store.branch(entryId);
    this.reloadContext();
    return { text, cancelled: false };
  }

  /** Copies the current branch into a new session file (Pi's `clone`); the original stays as it was. */
  clone(): { cancelled: boolean } {
    idle(this.host, "clone");
    const path = this.store.pathToLeaf();
    const name = this.store.name;
    this.replace(this.create(this.parent()));
    this.store.appendCopy(path);
    if (name && this.store.name !== name) this.store.append({ type: "session_info", name });
    this.reloadContext();
    return { cancelled: false };
  }

  /** The user messages on the current path, the points a host can branch from. */
  branchMessages(): { messages: { entryId: string; text: string }[] } {
    const messages = [];
    for (const entry of this.store.pathToLeaf()) {
      if (entry.type === "message" && entry.message.role === "user") messages.push({ entryId: entry.id, text: blockText(entry.message.content) });
    }
    return { messages };
  }

  sessionStats() {
    const contextUsage = this.host.contextUsage();
    return { ...sessionStats(this.host.context, { path: this.store.path, sessionId: this.store.sessionId }), ...(contextUsage ? { contextUsage } : {}) };
  }

  async exportHtml(outputPath?: string): Promise<{ path: string }> {
    const { store } = this;
    const path = resolve(this.options.cwd, outputPath ?? `nova-session-${store.sessionId.slice(0, 8)}.html`);
    const model = this.host.choice.model;
    const html = exportHtml(
      {
        messages: this.host.context,
        sessionId: store.sessionId,
        name: store.name,
        cwd: this.options.cwd,
        model: model ? { provider: model.provider, modelId: model.id } : undefined,
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
    idle(this.host, "hand off");
    if (this.host.context.length === 0) throw new CommandError("Nothing to hand off: the session has no messages.");
    const summary = await this.host.handoffSummary(this.host.context, customInstructions);
    const fromId = this.store.sessionId;
    this.newSession();
    this.store.append({ type: "branch_summary", fromId, summary });
    this.reloadContext();
    const { store } = this;
    return { cancelled: false, sessionId: store.sessionId, sessionFile: store.path, parentSession: store.header.parentSession, summary };
  }

  /** Rebuilds the context from the session file's current path. */
  reloadContext(): void {
    this.host.context = this.store.buildContext().messages;
  }

  private parent(): string | undefined {
    return this.store.written ? this.store.path : undefined;
  }

  private replace(store: SessionStore): void {
    this.store.close();
    this.store = store;
  }

  private create(parentSession?: string): SessionStore {
    const { cwd, noSession, sessionDir, config } = this.options;
    const options = parentSession ? { cwd, parentSession } : { cwd };
    if (noSession) return SessionStore.inMemory(options);
    return SessionStore.create(sessionDir ?? sessionDirFor(config.novaHome, cwd), { ...options, deferred: true });
  }
}
