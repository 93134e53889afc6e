/**
 * What the agent reports, in Pi's event shapes. The agent emits these to one
 * sink; the rpc and acp layers translate them into their own frames.
 */
import type { AgentMessage, AssistantMessage, ToolCall, ToolResultMessage } from "../core/messages.ts";
import type { ToolResult } from "../tools/types.ts";
import type { TodoPhase, TodoTask } from "../core/todos.ts";
import type { z } from "zod";
import type { frameSchemas } from "../core/frames.ts";

export type AssistantMessageEvent =
  | { type: "text_start"; contentIndex: number }
  | { type: "text_delta"; contentIndex: number; delta: string }
  | { type: "text_end"; contentIndex: number; content: string }
  | { type: "thinking_start"; contentIndex: number }
  | { type: "thinking_delta"; contentIndex: number; delta: string }
  | { type: "thinking_end"; contentIndex: number; content: string }
  | { type: "toolcall_start"; contentIndex: number; id: string; toolName: string }
  | { type: "toolcall_delta"; contentIndex: number; delta: string }
  | { type: "toolcall_end"; contentIndex: number; toolCall: ToolCall };

export interface CompactionResult {
  summary: string;
  firstKeptEntryId: string;
  tokensBefore: number;
  tokensAfter?: number;
}

export type AgentEvent =
  | { type: "agent_start" }
  | { type: "agent_end"; messages: AgentMessage[] }
  | { type: "agent_settled" }
  | { type: "turn_start"; turnIndex: number }
  | { type: "turn_end"; turnIndex: number; message: AssistantMessage; toolResults: ToolResultMessage[] }
  | { type: "message_start"; message: AgentMessage }
  | { type: "message_update"; message: AssistantMessage; assistantMessageEvent: AssistantMessageEvent }
  | { type: "message_end"; message: AgentMessage }
  | { type: "tool_execution_start"; toolCallId: string; toolName: string; args: Record<string, unknown> | string }
  | { type: "tool_execution_update"; toolCallId: string; toolName: string; args: Record<string, unknown> | string; partialResult: ToolResult }
  | { type: "tool_execution_end"; toolCallId: string; toolName: string; result: ToolResult; isError: boolean }
  | { type: "permission_request"; requestId: number; toolName: string; command: string }
  | { type: "queue_update"; steering: string[]; followUp: string[]; pendingMessageCount: number }
  | { type: "auto_retry_start"; attempt: number; maxAttempts: number; delayMs: number; errorMessage: string }
  | { type: "auto_retry_end"; success: boolean; attempt: number; finalError?: string }
  | { type: "auto_compaction_start"; reason: "threshold" | "overflow" }
  | { type: "auto_compaction_end"; result?: CompactionResult; aborted: boolean; willRetry: boolean; errorMessage?: string }
  | { type: "todo_reminder"; todos: TodoTask[]; phases: TodoPhase[] }
  | { type: "todo_auto_clear"; phases: TodoPhase[] }
  | { type: "compaction_end"; reason: "manual" | "threshold" | "overflow"; before: number; after: number; result?: CompactionResult; aborted: boolean; errorMessage?: string };

/** Where the agent's events go. `ready` lets a slow consumer hold the stream back. */
export interface EventSink {
  emit(event: AgentEvent): void;
  /** resolves when the consumer can take more; undefined when it already can */
  ready(): Promise<void> | undefined;
}

// ----- tsc keeps these shapes equal to the outbound frame schemas (core/frames.ts) -----

type Frames = ReturnType<typeof frameSchemas>;
type FrameOf<K extends keyof Frames> = z.infer<Frames[K]>;
type Same<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
type EventOf<K extends AgentEvent["type"]> = Extract<AgentEvent, { type: K }>;
/** message_update's frame may carry the light header instead of the whole message, so only the event must fit the frame. */
type Fits<A, B> = [A] extends [B] ? true : false;
type Checked = {
  [K in AgentEvent["type"]]: K extends "message_update" ? Fits<EventOf<K>, FrameOf<K>> : Same<EventOf<K>, FrameOf<K>>;
};
/** The events whose shape left its frame schema's; tsc names them here. */
type Drift = { [K in keyof Checked]: Checked[K] extends true ? never : K }[keyof Checked];
type InStep<D extends never> = D;
export type EventsMatchFrames = InStep<Drift>;
