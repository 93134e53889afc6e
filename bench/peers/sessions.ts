/**
 * One host session per headless protocol, all with the same few verbs the
 * measures need: the first request and its answer, what comes before a
 * prompt, a prompt to the end of its turn, the next streamed delta, and an
 * abort. Pi's RPC (nova, Pi, oh-my-pi), Claude Code's stream-json with its
 * control requests, Codex's app-server (JSON-RPC without the "jsonrpc"
 * member), and ACP (Gemini CLI, opencode), each spoken as its documented
 * clients speak it.
 */
import type { Agent } from "./agents.ts";
import { type Frame, RpcProcess } from "./rpc.ts";

export interface Session {
  readonly proc: RpcProcess;
  /** the protocol's first request and its response: Pi's get_state, the others' initialize */
  handshake(): Promise<void>;
  /** what a host does after the handshake and before its first prompt (a thread, a session) */
  open(): Promise<void>;
  /** one user prompt to the end of its turn; resolves with the last answer's text */
  prompt(text: string, timeoutMs?: number): Promise<string>;
  /** resolves at the next streamed text delta */
  nextDelta(): Promise<void>;
  /** asks the running turn to stop; resolves once the turn has ended */
  abort(): Promise<void>;
  /** tool calls the agent reported as failed, so far */
  readonly toolFailures: string[];
}

export function openSession(agent: Agent, providerUrl: string): Session {
  const launch = agent.command(providerUrl);
  switch (agent.protocol) {
    case "pi":
      return new PiSession(new RpcProcess(launch));
    case "claude":
      return new ClaudeSession(new RpcProcess(launch, true));
    case "codex":
      return new CodexSession(new RpcProcess(launch, true));
    case "acp":
      return new AcpSession(new RpcProcess(launch, true));
  }
}

/** What every session keeps: the running turn's end, the failures, a request counter. */
abstract class Base implements Session {
  readonly toolFailures: string[] = [];
  protected turn?: Promise<unknown>;
  private nextId = 1;

  constructor(readonly proc: RpcProcess) {}

  abstract handshake(): Promise<void>;
  abstract prompt(text: string, timeoutMs?: number): Promise<string>;
  abstract nextDelta(): Promise<void>;
  abstract abort(): Promise<void>;

  async open(): Promise<void> {}

  protected id(): number {
    return this.nextId++;
  }

  /** A JSON-RPC request and its result; an error response fails. */
  protected async call(method: string, params: unknown, jsonrpc = true, timeoutMs = 60_000): Promise<any> {
    const id = this.id();
    const response = this.proc.waitFor((f) => f.type === "response" && f.data.id === id, timeoutMs);
    this.proc.send({ ...(jsonrpc ? { jsonrpc: "2.0" } : {}), id, method, params });
    const data = (await response).data;
    if (data.error) throw new Error(`${method}: ${JSON.stringify(data.error).slice(0, 300)}`);
    return data.result;
  }

  /** Records the turn's end for abort(), and hands it back. */
  protected running<T>(end: Promise<T>): Promise<T> {
    this.turn = end;
    return end;
  }

  protected async endOfTurn(): Promise<void> {
    if (!this.turn) throw new Error("abort: no turn is running");
    await this.turn;
  }
}

/** Pi's `--mode rpc`: commands with ids, `agent_end` closes a turn. */
class PiSession extends Base {
  constructor(proc: RpcProcess) {
    super(proc);
    proc.onFrame((f) => {
      if (f.type === "tool_execution_end" && f.data.isError) this.toolFailures.push(`${f.data.toolName}: ${JSON.stringify(f.data.result).slice(0, 200)}`);
    });
  }

  async handshake(): Promise<void> {
    await this.proc.request({ type: "get_state" });
  }

  async prompt(text: string, timeoutMs = 120_000): Promise<string> {
    const end = this.running(this.proc.waitForType("agent_end", timeoutMs));
    const response = await this.proc.request({ type: "prompt", message: text });
    if (!response.success) throw new Error(`prompt: ${response.error}`);
    const last = (await end).data.messages.at(-1);
    return last?.content?.find((c: any) => c.type === "text")?.text ?? "";
  }

  async nextDelta(): Promise<void> {
    await this.proc.waitForType("message_update");
  }

  async abort(): Promise<void> {
    this.proc.send({ type: "abort", id: "abort" });
    await this.endOfTurn();
  }
}

/**
 * Claude Code's `-p --input-format stream-json`: the SDK's `initialize`
 * control request first; a user message per prompt; `result` closes a turn;
 * the `interrupt` control request stops one.
 */
class ClaudeSession extends Base {
  constructor(proc: RpcProcess) {
    super(proc);
    proc.onFrame((f) => {
      if (f.type !== "user") return;
      for (const block of f.data.message?.content ?? []) {
        if (block.type === "tool_result" && block.is_error) this.toolFailures.push(JSON.stringify(block.content).slice(0, 200));
      }
    });
  }

  private control(subtype: string): Promise<Frame> {
    const request_id = `c${this.id()}`;
    const response = this.proc.waitFor((f) => f.type === "control_response" && f.data.response?.request_id === request_id);
    this.proc.send({ type: "control_request", request_id, request: { subtype } });
    return response;
  }

  async handshake(): Promise<void> {
    await this.control("initialize");
  }

  async prompt(text: string, timeoutMs = 120_000): Promise<string> {
    const end = this.running(this.proc.waitForType("result", timeoutMs));
    this.proc.send({ type: "user", message: { role: "user", content: text }, parent_tool_use_id: null, session_id: "" });
    const result = (await end).data;
    if (result.is_error && result.subtype !== "error_during_execution") throw new Error(`result: ${String(result.result ?? result.subtype).slice(0, 300)}`);
    return result.result ?? "";
  }

  async nextDelta(): Promise<void> {
    await this.proc.waitFor((f) => f.type === "stream_event" && f.data.event?.type === "content_block_delta");
  }

  async abort(): Promise<void> {
    await this.control("interrupt");
    await this.endOfTurn();
  }
}

/**
 * Codex's `app-server`: `initialize` then the `initialized` notification,
 * `thread/start` (no approvals, no sandbox, ephemeral), `turn/start` per
 * prompt; `turn/completed` closes a turn; `turn/interrupt` stops one.
 */
class CodexSession extends Base {
  private thread = "";
  private turnId = "";
  private lastText = "";

  constructor(proc: RpcProcess) {
    super(proc);
    proc.onFrame((f) => {
      if (f.type !== "item/completed") return;
      const item = f.data.params?.item;
      if (item?.type === "agentMessage") this.lastText = item.text;
      if (item?.type === "commandExecution" && (item.status === "failed" || (item.exitCode ?? 0) !== 0)) {
        this.toolFailures.push(`${item.command}: exit ${item.exitCode} ${String(item.aggregatedOutput ?? "").slice(0, 200)}`);
      }
    });
  }

  async handshake(): Promise<void> {
    await this.call("initialize", { clientInfo: { name: "nova-bench", title: null, version: "0" }, capabilities: null }, false);
    this.proc.send({ method: "initialized" });
  }

  override async open(): Promise<void> {
    const { cwd } = this.proc.launch;
    const result = await this.call("thread/start", { cwd, approvalPolicy: "never", sandbox: "danger-full-access", ephemeral: true }, false);
    this.thread = result.thread.id;
  }

  async prompt(text: string, timeoutMs = 120_000): Promise<string> {
    const end = this.running(this.proc.waitFor((f) => f.type === "turn/completed" && f.data.params?.threadId === this.thread, timeoutMs));
    this.lastText = "";
    const started = await this.call("turn/start", { threadId: this.thread, input: [{ type: "text", text, text_elements: [] }] }, false);
    this.turnId = started.turn.id;
    const turn = (await end).data.params.turn;
    if (turn.status === "failed") throw new Error(`turn failed: ${JSON.stringify(turn.error).slice(0, 300)}`);
    return this.lastText;
  }

  async nextDelta(): Promise<void> {
    await this.proc.waitForType("item/agentMessage/delta");
  }

  async abort(): Promise<void> {
    await this.call("turn/interrupt", { threadId: this.thread, turnId: this.turnId }, false);
    await this.endOfTurn();
  }
}

/**
 * ACP over stdio (Gemini CLI, opencode): `initialize`, `session/new` (Gemini
 * CLI then switched to its `yolo` mode so tools run unasked), `session/prompt`
 * whose response closes the turn, `session/cancel` to stop one. A permission
 * request is answered with its first allowing option, as a host that allows
 * everything would.
 */
class AcpSession extends Base {
  private session = "";
  private text = "";

  constructor(proc: RpcProcess) {
    super(proc);
    proc.onFrame((f) => {
      if (f.type === "session/request_permission") {
        const options: any[] = f.data.params?.options ?? [];
        const allow = options.find((o) => o.kind === "allow_always") ?? options.find((o) => o.kind === "allow_once") ?? options[0];
        proc.send({ jsonrpc: "2.0", id: f.data.id, result: { outcome: { outcome: "selected", optionId: allow?.optionId } } });
        return;
      }
      if (f.type !== "session/update") return;
      const update = f.data.params?.update;
      if (update?.sessionUpdate === "agent_message_chunk" && update.content?.type === "text") this.text += update.content.text;
      else if (update?.sessionUpdate === "tool_call_update" && update.status === "failed") this.toolFailures.push(JSON.stringify(update).slice(0, 300));
    });
  }

  async handshake(): Promise<void> {
    await this.call("initialize", { protocolVersion: 1, clientCapabilities: { fs: { readTextFile: false, writeTextFile: false }, terminal: false } });
  }

  override async open(): Promise<void> {
    const result = await this.call("session/new", { cwd: this.proc.launch.cwd, mcpServers: [] });
    this.session = result.sessionId;
    const yolo = result.modes?.availableModes?.find((m: any) => m.id === "yolo");
    if (yolo) await this.call("session/set_mode", { sessionId: this.session, modeId: yolo.id });
  }

  async prompt(text: string, timeoutMs = 120_000): Promise<string> {
    this.text = "";
    const result = await this.running(this.call("session/prompt", { sessionId: this.session, prompt: [{ type: "text", text }] }, true, timeoutMs));
    if (result.stopReason !== "end_turn" && result.stopReason !== "cancelled") throw new Error(`session/prompt stopped: ${result.stopReason}`);
    return this.text;
  }

  async nextDelta(): Promise<void> {
    await this.proc.waitFor((f) => f.type === "session/update" && f.data.params?.update?.sessionUpdate === "agent_message_chunk");
  }

  async abort(): Promise<void> {
    this.proc.send({ jsonrpc: "2.0", method: "session/cancel", params: { sessionId: this.session } });
    await this.endOfTurn();
  }
}
