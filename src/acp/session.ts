/**
 * One ACP session over one core AgentSession: the prompt request that stays
 * open until the run settles, cancel, the permission asker the core calls, and
 * the core's events translated into session/update notifications. Nothing
 * here decides what the agent does; it only translates.
 */
import { readFileSync, statSync } from "node:fs";
import type { AgentSession, RunOptions } from "../agent/session.ts";
import type { AgentEvent } from "../agent/events.ts";
import type { AgentMessage, AssistantMessage } from "../core/messages.ts";
import { resolvePath } from "../tools/paths.ts";
import type { ToolResult } from "../tools/types.ts";
import type { AskedQuestion, PermissionChannel } from "../agent/permission-gate.ts";
import { PermissionWithdrawn, type PermissionAnswer } from "../agent/permission-requests.ts";
import { HOST_GONE, HostGone } from "../host/pending.ts";
import type { Connection } from "./connection.ts";
import { AUTH_REQUIRED, INTERNAL_ERROR, INVALID_PARAMS, INVALID_REQUEST, RpcError } from "./errors.ts";
import { permissionModes } from "../core/enums.ts";
import { MODE_DESCRIPTIONS } from "../agent/permission-mode.ts";
import type { ContentBlock } from "./params.ts";
import { availableCommands, slashCommand } from "./commands.ts";
import { promptInput } from "./prompt-content.ts";
import { replayUpdates } from "./replay.ts";
import { changedLine, planEntries, resultContent, toolDiffs, toolView, type ToolCallContent } from "./tool-calls.ts";
import type * as acp from "@agentclientprotocol/sdk";
import { clientRequests } from "./client-requests.ts";
import { failureKind } from "../core/errors.ts";
import { sumUsage } from "../core/usage.ts";
import type { ServerStatus } from "../mcp/index.ts";

export type StopReason = "end_turn" | "max_tokens" | "max_turn_requests" | "refusal" | "cancelled";

export interface PromptAnswer {
  stopReason: StopReason;
  usage: { totalTokens: number; inputTokens: number; outputTokens: number; cachedReadTokens: number; cachedWriteTokens: number };
  /** `nova/run`: the structured answer, why there is none, or which budget stopped the run */
  _meta?: { "nova/run": RunOutcome };
}

type RunOutcome = Partial<Pick<Extract<AgentEvent, { type: "agent_end" }>, "stopReason" | "structuredOutput" | "error">>;

interface Turn {
  cancelled: boolean;
  assistants: AssistantMessage[];
  /** what agent_end said beyond the messages, when the prompt asked for a schema or a budget */
  outcome?: RunOutcome;
  resolve: (answer: PromptAnswer) => void;
  reject: (error: RpcError) => void;
}

interface RunningTool {
  id: string;
  diffs: ToolCallContent[];
  terminalId?: string;
}

const PERMISSION_OPTIONS = [
  { optionId: "allow_once", name: "Allow once", kind: "allow_once" },
  { optionId: "allow_always", name: "Always allow this command", kind: "allow_always" },
  { optionId: "reject_once", name: "Reject", kind: "reject_once" },
  { optionId: "reject_always", name: "Always reject this command", kind: "reject_always" },
] as const;

/** A write shows its diff against the file's old text; past this size the old text is left out. */
const MAX_DIFF_BASE_BYTES = 1024 * 1024;

export class AcpSession {
  private turn: Turn | undefined;
  private readonly announced = new Set<string>();
  private tool: RunningTool | undefined;
  private asks = 0;

  constructor(
    readonly id: string,
    readonly core: AgentSession,
    private readonly conn: Connection,
  ) {
    core.subscribe((event) => {
      this.onEvent(event);
      return conn.drained();
    });
  }

  get busy(): boolean {
    return this.turn !== undefined || this.core.isStreaming;
  }

  /** Runs one prompt; resolves when the run has settled, with why it stopped. */
  async prompt(blocks: ContentBlock[], options?: RunOptions): Promise<PromptAnswer> {
    if (this.busy) throw new RpcError(INVALID_REQUEST, `Session ${this.id} is already running a prompt; wait for its answer or send session/cancel`);
    const command = slashCommand(blocks);
    if (command) return this.compact(command.args);
    let { text, images } = promptInput(blocks);
    const expanded = text.startsWith("/") ? await this.core.options.mcp?.expand(text) : undefined;
    if (expanded) ({ text, images } = { text: expanded.text, images: [...images, ...expanded.images] });
    return new Promise<PromptAnswer>((resolve, reject) => {
      this.turn = { cancelled: false, assistants: [], resolve, reject };
      try {
        this.core.prompt(text, images, undefined, options);
      } catch (error) {
        this.turn = undefined;
        reject(new RpcError(INTERNAL_ERROR, (error as Error).message));
      }
    });
  }

  /** `/compact [instructions]`: the outcome is told as an agent message; cancel aborts the summary request. */
  private async compact(instructions: string): Promise<PromptAnswer> {
    const turn: Turn = { cancelled: false, assistants: [], resolve: () => {}, reject: () => {} };
    this.turn = turn;
    let text: string;
    try {
      const result = await this.core.compact(instructions || undefined);
      text = `Compacted the conversation: about ${result.tokensBefore} tokens before, ${result.estimatedTokensAfter} after.`;
    } catch (error) {
      text = `Nothing was compacted: ${(error as Error).message}`;
    } finally {
      this.turn = undefined;
    }
    if (!turn.cancelled) this.update({ sessionUpdate: "agent_message_chunk", content: { type: "text", text } });
    return { stopReason: turn.cancelled ? "cancelled" : "end_turn", usage: promptUsage([]) };
  }

  /** The permission modes as ACP session modes (session/new, session/load). */
  modes(): { availableModes: { id: string; name: string; description: string }[]; currentModeId: string } {
    return {
      availableModes: permissionModes.map((id) => ({ id, ...MODE_DESCRIPTIONS[id] })),
      currentModeId: this.core.permissionMode,
    };
  }

  /** session/set_mode: an unknown mode is -32602 naming it; the change is announced as current_mode_update. */
  setMode(modeId: string): void {
    const mode = permissionModes.find((m) => m === modeId);
    if (!mode) throw new RpcError(INVALID_PARAMS, `Invalid params for session/set_mode: modeId ${JSON.stringify(modeId)} is not one of ${permissionModes.join(", ")}`);
    this.core.permissionMode = mode;
  }

  advertiseCommands(): void {
    const prompts = (this.core.options.mcp?.commands() ?? []).map((c) => ({
      name: c.name,
      description: c.description,
      ...(c.arguments.length > 0 ? { input: { hint: c.arguments.map((a) => (a.required ? a.name : `[${a.name}]`)).join(" ") } } : {}),
    }));
    this.update({ sessionUpdate: "available_commands_update", availableCommands: [...availableCommands, ...prompts] });
  }

  /** session/cancel: the running prompt answers `cancelled`; open permission questions count as rejected. */
  cancel(): void {
    if (!this.turn) return;
    this.turn.cancelled = true;
    void this.core.abort();
  }

  /** session/load: the history as the editor would have seen it live. */
  replay(messages: AgentMessage[]): void {
    for (const update of replayUpdates(messages, this.core.cwd)) this.update(update);
  }

  update(update: Record<string, unknown>): void {
    this.conn.notify("session/update", { sessionId: this.id, update });
  }

  /** An MCP server of this session changed: ACP has no update for it, so an extension notification says so. */
  mcpStatus(status: ServerStatus): void {
    this.conn.notify("_nova/mcp_server_status", { sessionId: this.id, ...status });
  }

  /** After session/new or session/load: the commands, and where each of the session's MCP servers stands. */
  opened(): void {
    this.advertiseCommands();
    for (const status of this.core.options.mcp?.servers() ?? []) this.mcpStatus(status);
  }

  /** The editor terminal a delegated bash runs in, embedded in the tool call. */
  showTerminal(terminalId: string): void {
    if (!this.tool) return;
    this.tool.terminalId = terminalId;
    this.update({ sessionUpdate: "tool_call_update", toolCallId: this.tool.id, content: [{ type: "terminal", terminalId }] });
  }

  private onEvent(event: AgentEvent): void {
    switch (event.type) {
      case "message_update": {
        const e = event.assistantMessageEvent;
        if (e.type === "text_delta") this.update({ sessionUpdate: "agent_message_chunk", content: { type: "text", text: e.delta } });
        else if (e.type === "thinking_delta") this.update({ sessionUpdate: "agent_thought_chunk", content: { type: "text", text: e.delta } });
        else if (e.type === "toolcall_end") this.announce(e.toolCall.id, e.toolCall.name, e.toolCall.arguments, "pending");
        return;
      }
      case "message_end":
        if (event.message.role === "assistant") this.turn?.assistants.push(event.message);
        return;
      case "tool_execution_start":
        return this.toolStarted(event.toolCallId, event.toolName, event.args);
      case "tool_execution_update":
        if (this.tool?.terminalId) return;
        this.update({ sessionUpdate: "tool_call_update", toolCallId: event.toolCallId, content: [...(this.tool?.diffs ?? []), ...resultContent(event.partialResult)] });
        return;
      case "tool_execution_end":
        return this.toolEnded(event.toolCallId, event.result, event.isError);
      case "todos_changed":
        return this.update({ sessionUpdate: "plan", entries: planEntries(event.phases) });
      case "agent_end":
        if (this.turn && (event.stopReason || "structuredOutput" in event || event.error)) {
          const { stopReason, structuredOutput, error } = event;
          this.turn.outcome = { ...(stopReason ? { stopReason } : {}), ...("structuredOutput" in event ? { structuredOutput } : {}), ...(error ? { error } : {}) };
        }
        return;
      case "agent_settled":
        return this.settle();
      case "permission_mode_changed":
        return this.update({ sessionUpdate: "current_mode_update", currentModeId: event.mode });
    }
  }

  private announce(id: string, name: string, args: Record<string, unknown> | string, status: "pending" | "in_progress"): void {
    if (this.announced.has(id)) return;
    this.announced.add(id);
    const view = toolView(name, args, this.core.cwd);
    this.update({ sessionUpdate: "tool_call", toolCallId: id, ...view, status, rawInput: typeof args === "string" ? { arguments: args } : args });
  }

  private toolStarted(id: string, name: string, args: Record<string, unknown> | string): void {
    const diffs = toolDiffs(name, args, this.core.cwd, name === "write" ? this.currentText(args) : null);
    this.tool = { id, diffs };
    if (!this.announced.has(id)) this.announce(id, name, args, "in_progress");
    this.update({ sessionUpdate: "tool_call_update", toolCallId: id, status: "in_progress", ...(diffs.length > 0 ? { content: diffs } : {}) });
  }

  private toolEnded(id: string, result: ToolResult, isError: boolean): void {
    const tool = this.tool?.id === id ? this.tool : undefined;
    this.tool = undefined;
    this.announced.delete(id);
    const content: ToolCallContent[] = [];
    if (!isError) content.push(...(tool?.diffs ?? []));
    if (tool?.terminalId) content.push({ type: "terminal", terminalId: tool.terminalId });
    content.push(...resultContent(result));
    const line = changedLine(result.details);
    const update: Record<string, unknown> = { sessionUpdate: "tool_call_update", toolCallId: id, status: isError ? "failed" : "completed", content };
    if (result.details !== undefined) update.rawOutput = result.details;
    const diffPath = tool?.diffs[0]?.type === "diff" ? tool.diffs[0].path : undefined;
    if (line && diffPath) update.locations = [{ path: diffPath, line }];
    this.update(update);
  }

  /** What a file holds before a write replaces it: read now, synchronously, before the tool runs. */
  private currentText(args: Record<string, unknown> | string): string | null {
    if (typeof args === "string" || typeof args.path !== "string") return null;
    const path = resolvePath(this.core.cwd, args.path);
    try {
      if (statSync(path).size > MAX_DIFF_BASE_BYTES) return null;
      return readFileSync(path, "utf8");
    } catch {
      return null;
    }
  }

  /**
   * The core's permission channel for this session: session/request_permission
   * straight to the editor, with the edit as ACP diff content. "Always"
   * answers are remembered by the gate for the session. A cancel withdraws
   * the question at once; once the editor is gone, it fails with HostGone.
   */
  readonly askPermission: PermissionChannel = async (question, signal) => {
    if (signal.aborted) throw new PermissionWithdrawn("aborted");
    const { toolName, command, arguments: args, kind } = question;
    const diff = question.path ? this.permissionDiff(question) : [];
    const toolCall: acp.ToolCallUpdate = {
      toolCallId: question.toolCallId ?? this.tool?.id ?? `permission-${++this.asks}`,
      title: kind === "write" || kind === "edit" ? `${toolName} ${question.path ?? ""}`.trim() : args ? toolName : command,
      kind: kind === "bash" ? "execute" : kind === "write" || kind === "edit" ? "edit" : "other",
      status: "pending",
      rawInput: args ?? (question.path ? { path: question.path } : { command }),
      ...(diff.length > 0 ? { content: diff } : {}),
      ...(question.path ? { locations: [{ path: question.path }] } : {}),
    };
    const asked = this.conn.request(clientRequests.requestPermission, { sessionId: this.id, toolCall, options: [...PERMISSION_OPTIONS] }).then((answer): PermissionAnswer => {
      if (answer?.outcome?.outcome === "cancelled") throw new PermissionWithdrawn("aborted");
      const optionId = answer?.outcome?.outcome === "selected" ? answer.outcome.optionId : undefined;
      const option = PERMISSION_OPTIONS.find((o) => o.optionId === optionId);
      const approved = option?.kind === "allow_once" || option?.kind === "allow_always";
      return option?.kind === "allow_always" || option?.kind === "reject_always" ? { approved, remember: "session" } : { approved };
    });
    let onAbort = () => {};
    const cancelled = new Promise<never>((_, reject) => {
      onAbort = () => reject(new PermissionWithdrawn("aborted"));
      signal.addEventListener("abort", onAbort, { once: true });
    });
    try {
      return await Promise.race([asked, cancelled]);
    } catch (error) {
      if (error instanceof PermissionWithdrawn) throw error;
      if (this.conn.isClosed) throw new HostGone(HOST_GONE);
      process.stderr.write(`nova: acp: permission request for ${JSON.stringify(command)} failed: ${(error as Error).message}\n`);
      return { approved: false };
    } finally {
      signal.removeEventListener("abort", onAbort);
      asked.catch(() => {});
      cancelled.catch(() => {});
    }
  };

  /** The change a write or edit would make, as the ACP diff blocks editors render (worked out when the call started). */
  private permissionDiff(question: AskedQuestion): ToolCallContent[] {
    const tool = this.tool && (question.toolCallId === undefined || question.toolCallId === this.tool.id) ? this.tool : undefined;
    return tool?.diffs ?? [];
  }

  private settle(): void {
    // calls the model wrote but that never ran (the stream failed or was cancelled after them)
    for (const id of this.announced) this.update({ sessionUpdate: "tool_call_update", toolCallId: id, status: "failed" });
    this.announced.clear();
    this.tool = undefined;
    const turn = this.turn;
    if (!turn) return;
    this.turn = undefined;
    const usage = this.core.contextUsage();
    if (usage) {
      const cost = turn.assistants.reduce((sum, m) => sum + m.usage.cost.total, 0);
      this.update({ sessionUpdate: "usage_update", used: usage.tokens, size: usage.contextWindow, cost: { amount: cost, currency: "USD" } });
    }
    const last = turn.assistants.at(-1);
    const outcome = turn.outcome;
    const answer = (stopReason: StopReason) => turn.resolve({ stopReason, usage: promptUsage(turn.assistants), ...(outcome ? { _meta: { "nova/run": outcome } } : {}) });
    if (turn.cancelled || last?.stopReason === "aborted") return answer("cancelled");
    // ACP has no reason for a spent dollar budget: it is a limit on the turn's requests
    if (outcome?.stopReason) return answer(outcome.stopReason === "max_tokens" ? "max_tokens" : "max_turn_requests");
    if (last?.stopReason === "length") return answer("max_tokens");
    if (last?.stopReason !== "error") return answer("end_turn");
    if (failureKind(last) === "refusal") return answer("refusal");
    // the one failure without a model is that none is configured: the editor should offer authentication
    turn.reject(new RpcError(this.core.model ? INTERNAL_ERROR : AUTH_REQUIRED, last.errorMessage ?? "the model request failed"));
  }
}

function promptUsage(messages: AssistantMessage[]): PromptAnswer["usage"] {
  const sum = sumUsage(messages);
  return { totalTokens: sum.totalTokens, inputTokens: sum.input, outputTokens: sum.output, cachedReadTokens: sum.cacheRead, cachedWriteTokens: sum.cacheWrite };
}
