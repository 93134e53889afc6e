/**
 * A session's side of checkpoints: loads `checkpoints/` on the first tool
 * that may change files (a session whose tools only read never loads it),
 * knows which session entry a batch belongs to, and answers the RPC and ACP
 * commands. A sub-agent records nothing itself: its parent's `task` call is
 * the batch that covers what the child changed.
 */
import { isAbsolute, relative, resolve, sep } from "node:path";
import type { Checkpoints, CheckpointsStatus, CheckpointSummary, FileChange, RevertResult } from "../checkpoints/index.ts";
import type { Config } from "../config/load.ts";
import type { AssistantMessage } from "../core/messages.ts";
import type { SessionStore } from "../session/index.ts";
import type { Tool } from "../tools/types.ts";
import { CommandError } from "./errors.ts";
import type { AgentEvent, EventSink } from "./events.ts";

/** Tools whose only effect on files is the one file their `path` names. */
const TARGETED = new Set(["write", "edit"]);
const URL_LIKE = /^[A-Za-z][A-Za-z0-9+.-]*:\/\//;

/** The session, as checkpoints see it. */
export interface CheckpointingHost {
  readonly cwd: string;
  subscribe(listener: (event: AgentEvent) => void): () => void;
  readonly tools: readonly Tool[];
  readonly options: { readonly config: Config; readonly depth?: number };
  readonly store: SessionStore;
  readonly sink: EventSink;
}

export class SessionCheckpoints {
  private load: Promise<Checkpoints | undefined> | undefined;
  private loaded: Checkpoints | undefined;

  constructor(private readonly host: CheckpointingHost) {
    // A bash call being streamed: scan the cwd now, while the model writes its arguments, not when it runs.
    host.subscribe((event) => {
      if (event.type !== "message_update" || event.assistantMessageEvent.type !== "toolcall_start") return;
      const name = event.assistantMessageEvent.toolName;
      if (TARGETED.has(name) || this.host.tools.find((t) => t.name === name)?.mutating === false) return;
      void this.checkpoints().then((c) => c?.prefetch());
    });
  }

  private get config(): Config {
    return this.host.options.config;
  }

  private get active(): boolean {
    return (this.host.options.depth ?? 0) === 0 && this.config.checkpoints.enabled;
  }

  get status(): CheckpointsStatus {
    if ((this.host.options.depth ?? 0) > 0) return { enabled: false, reason: "a sub-agent's changes are recorded by its parent" };
    if (!this.config.checkpoints.enabled) return { enabled: false, reason: "checkpoints.enabled is false in the config" };
    return this.loaded?.status ?? { enabled: true };
  }

  private checkpoints(): Promise<Checkpoints | undefined> {
    if (!this.active) return Promise.resolve(undefined);
    this.load ??= import("../checkpoints/index.ts").then(({ Checkpoints }) => {
      this.loaded = new Checkpoints({
        cwd: this.host.cwd,
        novaHome: this.config.novaHome,
        settings: this.config.checkpoints,
        sessionId: () => this.host.store.sessionId,
        entryTime: (id) => {
          const entry = this.host.store.getEntry(id);
          return entry ? Date.parse(entry.timestamp) : undefined;
        },
        onRecord: (record) => this.host.sink.emit({ type: "checkpoint_created", entryId: record.entryId, files: record.files }),
      });
      return this.loaded;
    });
    return this.load;
  }

  /** Before a tool runs: the first one in a batch that may change files makes the state before the batch known. */
  async beforeTool(tool: Tool, args: Record<string, unknown>): Promise<void> {
    if (tool.mutating === false) return;
    const checkpoints = await this.checkpoints();
    if (!checkpoints) return;
    if (!TARGETED.has(tool.name)) {
      await checkpoints.beginBatch();
      return;
    }
    const path = typeof args.path === "string" ? args.path : undefined;
    // a host URI is the host's to keep; a bad path fails in the tool itself
    if (path === undefined || URL_LIKE.test(path)) return;
    if (isOutside(this.host.cwd, path)) {
      await checkpoints.beginBatch([]);
      checkpoints.noteOutside(resolve(this.host.cwd, path));
      return;
    }
    await checkpoints.beginBatch([path]);
  }

  /** After a batch: records what it changed, under the assistant message that made the calls. */
  async afterTools(message: AssistantMessage): Promise<void> {
    const checkpoints = this.loaded;
    if (!checkpoints) return;
    const entries = this.host.store.entries;
    let entryId: string | undefined;
    for (let i = entries.length - 1; i >= 0 && !entryId; i--) {
      const entry = entries[i]!;
      if (entry.type === "message" && entry.message === message) entryId = entry.id;
    }
    const turnIndex = entries.filter((e) => e.type === "message" && e.message.role === "assistant" && e.id !== entryId).length;
    await checkpoints.endBatch({ entryId: entryId ?? this.host.store.leafId ?? "", turnIndex });
  }

  async list(): Promise<{ checkpoints: CheckpointSummary[] }> {
    const checkpoints = await this.checkpoints();
    return { checkpoints: checkpoints?.list() ?? [] };
  }

  async changes(entryId: string): Promise<{ files: FileChange[]; diff: string }> {
    return this.call((c) => c.changes(entryId));
  }

  async revert(entryId: string, opts: { dryRun?: boolean; paths?: string[]; force?: boolean }): Promise<RevertResult> {
    return this.call((c) => c.revert(entryId, opts));
  }

  private async call<T>(fn: (c: Checkpoints) => T | Promise<T>): Promise<T> {
    const checkpoints = await this.checkpoints();
    if (!checkpoints) throw new CommandError(`checkpoints are off: ${this.status.reason}`);
    try {
      return await fn(checkpoints);
    } catch (error) {
      if ((error as Error).name === "CheckpointError" || error instanceof Error) throw new CommandError((error as Error).message);
      throw error;
    }
  }
}

function isOutside(cwd: string, path: string): boolean {
  const rel = relative(resolve(cwd), isAbsolute(path) ? path : resolve(cwd, path));
  return rel === ".." || rel.startsWith(`..${sep}`) || isAbsolute(rel);
}
