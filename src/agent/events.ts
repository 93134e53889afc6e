/**
 * What the agent reports, in Pi's event shapes. The agent emits these to one
 * sink; the rpc and acp layers translate them into their own frames.
 */
import type { AgentMessage, AssistantMessage, ToolCall, ToolResultMessage, Usage } from "../core/messages.ts";
import type { ThinkingLevel } from "../core/enums.ts";
import type { ToolResult } from "../tools/types.ts";
import type { TodoPhase, TodoTask } from "../core/todos.ts";
import type { FileChange } from "../checkpoints/index.ts";

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
  | { type: "message_update"; message: AssistantMessage; assistantMessageEvent: AssistantMessageEvent }
  | { type: "message_end"; message: AgentMessage }
  | { type: "tool_execution_start"; toolCallId: string; toolName: string; args: Record<string, unknown> | string }
  | { type: "tool_execution_update"; toolCallId: string; toolName: string; args: Record<string, unknown> | string; partialResult: ToolResult }
  | { type: "tool_execution_end"; toolCallId: string; toolName: string; result: ToolResult; isError: boolean; durationMs?: number }
  | { type: "permission_request"; requestId: number; toolName: string; command: string; arguments?: Record<string, unknown> }
  | { type: "queue_update"; steering: string[]; followUp: string[]; pendingMessageCount: number }
  | { type: "auto_retry_start"; attempt: number; maxAttempts: number; delayMs: number; errorMessage: string }
  | { type: "auto_retry_end"; success: boolean; attempt: number; finalError?: string }
  | { type: "auto_compaction_start"; reason: "threshold" | "overflow" }
  | { type: "auto_compaction_end"; result?: CompactionResult; aborted: boolean; willRetry: boolean; errorMessage?: string }
  | { type: "checkpoint_created"; entryId: string; files: FileChange[] }
  | { type: "todo_reminder"; todos: TodoTask[]; phases: TodoPhase[] }
  | { type: "todo_auto_clear"; phases: TodoPhase[] }
  | { type: "compaction_start"; reason: CompactionReason }
  | { type: "compaction_end"; reason: CompactionReason; before: number; after: number; result?: CompactionResult; aborted: boolean; willRetry: boolean; errorMessage?: string }
  | { type: "thinking_level_changed"; level: ThinkingLevel }
  | { type: "session_info_changed"; name: string | undefined }
  /** output of the host's own `bash` command as it arrives; id is the command's */
  | { type: "bash_execution_update"; id?: string; delta: string };

/**
 * Where the agent's events go. The return value carries backpressure: a
 * promise only while the consumer is full (the stream relay waits for it),
 * undefined otherwise, so the hot path awaits nothing per delta.
 */
export type Emit = (event: AgentEvent) => Promise<void> | undefined;

export interface EventSink {
  emit: Emit;
}
