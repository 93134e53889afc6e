/**
 * What the agent reports, in Pi's event shapes. The agent emits these to one
 * sink; the rpc and acp layers translate them into their own frames.
 */
import type { AgentMessage, AssistantMessage, ToolCall, ToolResultMessage, Usage } from "../core/messages.ts";
import type { ThinkingLevel } from "../core/enums.ts";
import type { ToolResult } from "../tools/types.ts";
import type { TodoPhase, TodoTask } from "../core/todos.ts";
import type { z } from "zod";
import type { frameSchemas } from "../core/frames.ts";
import type { FileChange } from "../checkpoints/index.ts";

/** What message assembly reports; `start` becomes message_start, the block events message_update. */
export type AssistantMessageEvent =
  | { type: "start" }
  | { type: "text_start"; contentIndex: number }
  | { type: "text_delta"; contentIndex: number; delta: string }
  | { type: "text_end"; contentIndex: number; content: string }
  | { type: "thinking_start"; contentIndex: number }
  | { type: "thinking_delta"; contentIndex: number; delta: string }
  | { type: "thinking_end"; contentIndex: number; content: string }
  | { type: "toolcall_start"; contentIndex: number; id: string; toolName: string }
  | { type: "toolcall_delta"; contentIndex: number; delta: string }
  | { type: "toolcall_end"; contentIndex: number; toolCall: ToolCall };

/** Pi's CompactionResult; `tokensAfter` is nova's older name for `estimatedTokensAfter`. */
export interface CompactionResult {
  summary: string;
  firstKeptEntryId: string;
  tokensBefore: number;
  estimatedTokensAfter: number;
  tokensAfter: number;
  usage?: Usage;
  /** the files the summarised part read (and did not change) and changed, as Pi reports them */
  details: { readFiles: string[]; modifiedFiles: string[] };
}

export type CompactionReason = "manual" | "threshold" | "overflow";

export type AgentEvent =
  | { type: "agent_start" }
  /** willRetry is always false: nova retries inside a run, before its agent_end */
  | { type: "agent_end"; messages: AgentMessage[]; willRetry: boolean }
  | { type: "agent_settled"; aborted: boolean }
  | { type: "turn_start"; turnIndex: number }
  | { type: "turn_end"; turnIndex: number; message: AssistantMessage; toolResults: ToolResultMessage[] }
  | { type: "message_start"; message: AgentMessage }
  | { type: "message_update"; message: AssistantMessage; assistantMessageEvent: Exclude<AssistantMessageEvent, { type: "start" }> }
  | { type: "message_end"; message: AgentMessage }
  | { type: "tool_execution_start"; toolCallId: string; toolName: string; args: Record<string, unknown> | string }
  | { type: "tool_execution_update"; toolCallId: string; toolName: string; args: Record<string, unknown> | string; partialResult: ToolResult }
  | { type: "tool_execution_end"; toolCallId: string; toolName: string; result: ToolResult; isError: boolean; durationMs?: number }
  | { type: "permission_request"; requestId: number; toolName: string; command: string; arguments?: Record<string, unknown>; reason?: string }
  | { type: "queue_update"; steering: string[]; followUp: string[]; pendingMessageCount: number }
  | { type: "auto_retry_start"; attempt: number; maxAttempts: number; delayMs: number; errorMessage: string }
  | { type: "auto_retry_end"; success: boolean; attempt: number; finalError?: string }
  | { type: "auto_compaction_start"; reason: "threshold" | "overflow" }
  | { type: "auto_compaction_end"; result?: CompactionResult; aborted: boolean; willRetry: boolean; errorMessage?: string }
  | { type: "checkpoint_created"; entryId: string; files: FileChange[] }
  | { type: "todo_reminder"; todos: TodoTask[]; phases: TodoPhase[] }
  | { type: "todo_auto_clear"; phases: TodoPhase[] }
  /** the model changed the todo list (the todo tool); a host's own set_todos is not echoed */
  | { type: "todos_changed"; phases: TodoPhase[] }
  | { type: "compaction_start"; reason: CompactionReason }
  | { type: "compaction_end"; reason: CompactionReason; before: number; after: number; result?: CompactionResult; aborted: boolean; willRetry: boolean; errorMessage?: string }
  | { type: "thinking_level_changed"; level: ThinkingLevel }
  | { type: "session_info_changed"; name?: string }
  /** output of the host's own `bash` command as it arrives; id is the command's */
  | { type: "bash_execution_update"; id?: string | number; delta: string }
  | SubagentEvent;

/** What a child agent (the `task` tool) does, reported through its parent's sink at the level the host subscribed to. */
export type SubagentEvent =
  | { type: "subagent_lifecycle"; agentId: string; status: "started" | "completed" | "failed" | "aborted"; task: string; depth: number; sessionFile?: string }
  | { type: "subagent_progress"; agentId: string; text: string }
  | { type: "subagent_event"; agentId: string; event: AgentEvent };

/**
 * Where the agent's events go. The return value carries backpressure: a
 * promise only while the consumer is full (the stream relay waits for it),
 * undefined otherwise, so the hot path awaits nothing per delta.
 */
export type Emit = (event: AgentEvent) => Promise<void> | undefined;

export interface EventSink {
  emit: Emit;
}

// ----- tsc keeps these shapes equal to the outbound frame schemas (core/frames.ts) -----

type Frames = ReturnType<typeof frameSchemas>;
type FrameOf<K extends keyof Frames> = z.infer<Frames[K]>;
type Same<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
type EventOf<K extends AgentEvent["type"]> = Extract<AgentEvent, { type: K }>;
/**
 * message_update's frame is made by wire/event-frame.ts: it may carry the light
 * header instead of the whole message and adds the usage so far, so only the
 * event must fit the frame without that usage. subagent_event's frame leaves
 * the child's event open (it is any of these).
 */
type Fits<A, B> = [A] extends [B] ? true : false;
type Checked = {
  [K in AgentEvent["type"]]: K extends "message_update"
    ? Fits<EventOf<K>, Omit<FrameOf<K>, "usage">>
    : K extends "subagent_event"
      ? Fits<EventOf<K>, FrameOf<K>>
      : Same<EventOf<K>, FrameOf<K>>;
};
/** The events whose shape left its frame schema's; tsc names them here. */
type Drift = { [K in keyof Checked]: Checked[K] extends true ? never : K }[keyof Checked];
type InStep<D extends never> = D;
export type EventsMatchFrames = InStep<Drift>;
