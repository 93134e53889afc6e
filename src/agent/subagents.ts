/**
 * Child agents for the `task` tool: each runs in its own AgentSession (own
 * context and session file, restricted tools, the parent's model unless told
 * otherwise), at most `maxConcurrency` at once and `maxNestedSpawnDepth`
 * levels deep. What they do is reported as subagent_* events at the level the
 * host subscribed to.
 */
import { join } from "node:path";
import { AgentSession, type SessionOptions } from "./session.ts";
import { CommandError } from "./errors.ts";
import type { AgentEvent, SubagentEvent } from "./events.ts";
import type { AgentMessage } from "../core/messages.ts";
import type { SubagentRequest, SubagentRunner } from "../host/services.ts";
import { blockText } from "../core/text.ts";
import { parseModelRef } from "../core/model-ref.ts";

export type SubscriptionLevel = "off" | "progress" | "events";

export const DEFAULT_CHILD_TOOLS = ["read", "grep", "find", "ls"];

interface Child {
  agentId: string;
  task: string;
  depth: number;
  status: "queued" | "running" | "completed" | "failed" | "aborted";
  startedAt: string;
  endedAt?: string;
  session?: AgentSession;
  /** the host's own conversation, whose sink reports it (a grandchild's too, as before: not wrapped in its parent's events) */
  root: AgentSession;
}

export class Subagents {
  level: SubscriptionLevel = "off";
  private readonly children = new Map<string, Child>();
  private running = 0;
  private waiting: (() => void)[] = [];
  private next = 1;
  /** each child session's root conversation */
  private readonly roots = new WeakMap<AgentSession, AgentSession>();

  constructor(
    private readonly base: SessionOptions,
    private readonly limits: { maxConcurrency: number; maxNestedSpawnDepth: number },
  ) {}

  /** The runner a session's `task` tool uses; none once the nesting limit is reached. */
  runnerFor(parent: AgentSession): SubagentRunner | undefined {
    const depth = (parent.options.depth ?? 0) + 1;
    if (depth > this.limits.maxNestedSpawnDepth) return undefined;
    return { run: (request, signal, onProgress) => this.run(parent, depth, request, signal, onProgress) };
  }

  list() {
    return {
      subagents: [...this.children.values()].map(({ session, root: _root, ...info }) => ({ ...info, sessionFile: session?.store.path })),
    };
  }

  /** A child's messages: from its session file starting at `fromByte`, or from memory without one. */
  async messages(query: { agentId?: string; sessionFile?: string; fromByte?: number }) {
    if (!query.agentId && !query.sessionFile) throw new CommandError("get_subagent_messages needs agentId or sessionFile");
    const child = [...this.children.values()].find((c) => (query.agentId && c.agentId === query.agentId) || (query.sessionFile && c.session?.store.path === query.sessionFile));
    const file = child?.session?.store.path ?? query.sessionFile;
    if (!child && !query.sessionFile) throw new CommandError(`No subagent has agentId ${JSON.stringify(query.agentId)}`);
    if (!file || !child?.session?.store.written) {
      return { agentId: child?.agentId, sessionFile: file, messages: child?.session?.messages() ?? [], nextByte: 0 };
    }
    const bytes = new Uint8Array(await Bun.file(file).arrayBuffer());
    const from = Math.min(query.fromByte ?? 0, bytes.length);
    const text = new TextDecoder().decode(bytes.subarray(from));
    const lastLf = text.lastIndexOf("\n");
    const messages: AgentMessage[] = [];
    for (const line of text.slice(0, lastLf + 1).split("\n")) {
      if (!line.startsWith('{"type":"message"')) continue;
      messages.push(JSON.parse(line).message);
    }
    return { agentId: child?.agentId, sessionFile: file, messages, nextByte: from + new TextEncoder().encode(text.slice(0, lastLf + 1)).length };
  }

  private async run(parent: AgentSession, depth: number, request: SubagentRequest, signal: AbortSignal, onProgress: (text: string) => void) {
    const child: Child = {
      agentId: `agent_${this.next++}`,
      task: request.task,
      depth,
      status: "queued",
      startedAt: new Date().toISOString(),
      root: this.roots.get(parent) ?? parent,
    };
    this.children.set(child.agentId, child);
    await this.slot(signal);
    try {
      if (signal.aborted) return this.end(child, "aborted", "The sub-agent was cancelled before it started.");
      const session = this.spawn(parent, depth, request, child.agentId);
      child.session = session;
      this.roots.set(session, child.root);
      child.status = "running";
      this.emitIf(child, "progress", { type: "subagent_lifecycle", agentId: child.agentId, status: "started", task: child.task, depth, sessionFile: session.store.path });
      let budgetStop: string | undefined;
      session.subscribe((event) => {
        if (event.type === "agent_end" && event.stopReason) budgetStop = event.stopReason;
        return this.relay(child, event, onProgress);
      });
      const stop = () => void session.abort();
      signal.addEventListener("abort", stop, { once: true });
      session.prompt(request.task, []);
      await session.waitForIdle();
      signal.removeEventListener("abort", stop);
      const last = session.messages().findLast((m) => m.role === "assistant");
      const failed = (last?.role === "assistant" && last.stopReason === "error") || budgetStop !== undefined;
      const stopped = budgetStop && `The sub-agent stopped before it was done: the prompt's budget is used up (${budgetStop}).`;
      const text = stopped || (session.lastAssistantText() ?? (failed && last?.role === "assistant" ? `The sub-agent failed: ${last.errorMessage}` : ""));
      return this.end(child, signal.aborted ? "aborted" : failed ? "failed" : "completed", text);
    } finally {
      this.release();
    }
  }

  private spawn(parent: AgentSession, depth: number, request: SubagentRequest, agentId: string): AgentSession {
    const parentDir = parent.store.path ? join(parent.store.path, "..") : undefined;
    const options: SessionOptions = {
      ...this.base,
      depth,
      toolFilter: request.tools ?? DEFAULT_CHILD_TOOLS,
      sessionDir: parentDir ? join(parentDir, "subagents") : undefined,
      noSession: this.base.noSession || !parentDir,
      permissionGate: parent.permissionGate,
      agentId,
      budget: parent.runBudget,
      host: { uris: this.base.host?.uris },
      mcp: parent.options.mcp,
    };
    const session = new AgentSession(options);
    if (request.model) {
      const { provider, id } = parseModelRef(request.model);
      session.choice.set(provider, id);
    } else if (parent.model) session.model = parent.model;
    session.thinkingLevel = parent.thinkingLevel;
    return session;
  }

  private relay(child: Child, event: AgentEvent, onProgress: (text: string) => void): Promise<void> | undefined {
    const full = this.emitIf(child, "events", { type: "subagent_event", agentId: child.agentId, event });
    let text: string | undefined;
    if (event.type === "tool_execution_start") text = `${event.toolName} ${typeof event.args === "string" ? event.args : JSON.stringify(event.args)}`.slice(0, 200);
    else if (event.type === "message_end" && event.message.role === "assistant") {
      text = blockText(event.message.content).slice(0, 200);
    }
    if (!text) return full;
    onProgress(text);
    return this.emitIf(child, "progress", { type: "subagent_progress", agentId: child.agentId, text }) ?? full;
  }

  private end(child: Child, status: "completed" | "failed" | "aborted", text: string) {
    child.status = status;
    child.endedAt = new Date().toISOString();
    this.emitIf(child, "progress", { type: "subagent_lifecycle", agentId: child.agentId, status, task: child.task, depth: child.depth, sessionFile: child.session?.store.path });
    return { agentId: child.agentId, text, isError: status !== "completed" };
  }

  /** Through the parent's sink, like its own events: a full stdout holds the child back too. */
  private emitIf(child: Child, level: "progress" | "events", event: SubagentEvent): Promise<void> | undefined {
    if (this.level === "events" || (this.level === "progress" && level === "progress")) return child.root.sink.emit(event);
    return undefined;
  }

  private slot(signal: AbortSignal): Promise<void> {
    if (this.running < this.limits.maxConcurrency) {
      this.running++;
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      const wake = () => {
        signal.removeEventListener("abort", giveUp);
        this.running++;
        resolve();
      };
      const giveUp = () => {
        this.waiting = this.waiting.filter((w) => w !== wake);
        this.running++;
        resolve();
      };
      this.waiting.push(wake);
      signal.addEventListener("abort", giveUp, { once: true });
    });
  }

  private release(): void {
    this.running--;
    this.waiting.shift()?.();
  }
}
