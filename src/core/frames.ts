/**
 * zod schemas of every frame nova writes, for `--print-schema` and for the
 * test that checks real frames against that output. Built only when asked for:
 * nothing on the hot path validates its own output.
 */
import { z } from "zod";
import { once } from "./once.ts";
import { thinkingLevels, todoStatuses } from "./enums.ts";
import { capabilities } from "./protocol.ts";

/** The pieces frames share (messages, usage, todos), built once so every frame refers to the same schema objects. */
export const frameParts = once(() => {
  const text = z.object({ type: z.literal("text"), text: z.string(), textSignature: z.string().optional() });
  const image = z.object({ type: z.literal("image"), data: z.string(), mimeType: z.string() });
  const thinking = z.object({ type: z.literal("thinking"), thinking: z.string(), thinkingSignature: z.string().optional(), redacted: z.boolean().optional() });
  const toolCall = z.object({
    type: z.literal("toolCall"),
    id: z.string(),
    name: z.string(),
    arguments: z.record(z.string(), z.unknown()),
    thoughtSignature: z.string().optional(),
  });
  const cost = z.object({ input: z.number(), output: z.number(), cacheRead: z.number(), cacheWrite: z.number(), total: z.number() });
  const usage = z.object({ input: z.number(), output: z.number(), cacheRead: z.number(), cacheWrite: z.number(), totalTokens: z.number(), cost });
  const stopReason = z.enum(["stop", "length", "toolUse", "error", "aborted"]);
  const assistant = z.object({
    role: z.literal("assistant"),
    content: z.array(z.discriminatedUnion("type", [text, thinking, toolCall])),
    api: z.string(),
    provider: z.string(),
    model: z.string(),
    usage,
    stopReason,
    errorMessage: z.string().optional(),
    timestamp: z.number(),
  });
  const toolResultContent = z.array(z.discriminatedUnion("type", [text, image]));
  const toolResultMessage = z.object({
    role: z.literal("toolResult"),
    toolCallId: z.string(),
    toolName: z.string(),
    content: toolResultContent,
    details: z.unknown().optional(),
    isError: z.boolean(),
    timestamp: z.number(),
  });
  const message = z.discriminatedUnion("role", [
    z.object({ role: z.literal("user"), content: z.union([z.string(), z.array(z.discriminatedUnion("type", [text, image]))]), timestamp: z.number() }),
    assistant,
    toolResultMessage,
    z.object({
      role: z.literal("bashExecution"),
      command: z.string(),
      output: z.string(),
      exitCode: z.number().optional(),
      cancelled: z.boolean(),
      truncated: z.boolean(),
      fullOutputPath: z.string().optional(),
      excludeFromContext: z.boolean().optional(),
      timestamp: z.number(),
    }),
    z.object({
      role: z.literal("custom"),
      customType: z.string(),
      content: z.union([z.string(), z.array(z.discriminatedUnion("type", [text, image]))]),
      display: z.boolean(),
      details: z.unknown().optional(),
      timestamp: z.number(),
    }),
    z.object({ role: z.literal("compactionSummary"), summary: z.string(), tokensBefore: z.number(), timestamp: z.number() }),
    z.object({ role: z.literal("branchSummary"), summary: z.string(), fromId: z.string(), timestamp: z.number() }),
  ]);
  const toolResult = z.object({ content: toolResultContent, details: z.unknown().optional(), isError: z.boolean().optional() });
  const blockEvent = z.discriminatedUnion("type", [
    z.object({ type: z.literal("text_start"), contentIndex: z.number() }),
    z.object({ type: z.literal("text_delta"), contentIndex: z.number(), delta: z.string() }),
    z.object({ type: z.literal("text_end"), contentIndex: z.number(), content: z.string() }),
    z.object({ type: z.literal("thinking_start"), contentIndex: z.number() }),
    z.object({ type: z.literal("thinking_delta"), contentIndex: z.number(), delta: z.string() }),
    z.object({ type: z.literal("thinking_end"), contentIndex: z.number(), content: z.string() }),
    z.object({ type: z.literal("toolcall_start"), contentIndex: z.number(), id: z.string(), toolName: z.string() }),
    z.object({ type: z.literal("toolcall_delta"), contentIndex: z.number(), delta: z.string() }),
    z.object({ type: z.literal("toolcall_end"), contentIndex: z.number(), toolCall }),
  ]);
  const compactionResult = z.object({
    summary: z.string(),
    firstKeptEntryId: z.string(),
    tokensBefore: z.number(),
    estimatedTokensAfter: z.number(),
    tokensAfter: z.number(),
    usage: usage.optional(),
    details: z.object({ readFiles: z.array(z.string()), modifiedFiles: z.array(z.string()) }),
  });
  const compactionReason = z.enum(["manual", "threshold", "overflow"]);
  const todoTask = z.object({ content: z.string(), status: z.enum(todoStatuses) });
  const todoPhase = z.object({ name: z.string(), tasks: z.array(todoTask) });
  const event = <T extends string, S extends z.ZodRawShape>(type: T, shape: S) => z.object({ type: z.literal(type), ...shape });
  const args = z.union([z.record(z.string(), z.unknown()), z.string()]);
  return {
    text,
    image,
    thinking,
    toolCall,
    usage,
    assistant,
    toolResultMessage,
    message,
    toolResult,
    blockEvent,
    compactionResult,
    compactionReason,
    todoTask,
    todoPhase,
    event,
    args,
  };
});

/** The id a host gave its command, echoed as given. */
export const requestId = () => z.union([z.string(), z.number()]);

export const frameSchemas = once(() => {
  const { usage, assistant, toolResultMessage, message, toolResult, blockEvent, compactionResult, compactionReason, todoTask, todoPhase, event, args } = frameParts();
  return {
    /** the first frame of --mode rpc: nova's version, the protocol's, and the sub-protocols served */
    ready: event("ready", { version: z.string(), protocolVersion: z.string(), capabilities: z.array(z.enum(capabilities)) }),
    /** the first line of --mode json: the session file's header */
    session: event("session", { version: z.number(), id: z.string(), timestamp: z.string(), cwd: z.string() }),
    response: z.union([
      event("response", { id: requestId().optional(), command: z.string(), success: z.literal(true), data: z.unknown().optional() }),
      // a failure echoes whatever id the frame carried, even one of the wrong type
      event("response", { id: z.unknown().optional(), command: z.string(), success: z.literal(false), error: z.string() }),
    ]),
    agent_start: event("agent_start", {}),
    agent_end: event("agent_end", { messages: z.array(message), willRetry: z.boolean() }),
    agent_settled: event("agent_settled", { aborted: z.boolean() }),
    turn_start: event("turn_start", { turnIndex: z.number() }),
    turn_end: event("turn_end", { turnIndex: z.number(), message: assistant, toolResults: z.array(toolResultMessage) }),
    message_start: event("message_start", { message }),
    message_update: event("message_update", {
      message: z.union([assistant, z.object({ role: z.literal("assistant"), provider: z.string(), model: z.string() })]),
      assistantMessageEvent: blockEvent,
      usage,
    }),
    message_end: event("message_end", { message }),
    tool_execution_start: event("tool_execution_start", { toolCallId: z.string(), toolName: z.string(), args }),
    tool_execution_update: event("tool_execution_update", { toolCallId: z.string(), toolName: z.string(), args, partialResult: toolResult }),
    tool_execution_end: event("tool_execution_end", { toolCallId: z.string(), toolName: z.string(), result: toolResult, isError: z.boolean(), durationMs: z.number().optional() }),
    permission_request: event("permission_request", {
      requestId: z.number(),
      toolName: z.string(),
      command: z.string(),
      arguments: z.record(z.string(), z.unknown()).optional(),
      reason: z.string().optional(),
    }),
    queue_update: event("queue_update", { steering: z.array(z.string()), followUp: z.array(z.string()), pendingMessageCount: z.number() }),
    auto_retry_start: event("auto_retry_start", { attempt: z.number(), maxAttempts: z.number(), delayMs: z.number(), errorMessage: z.string() }),
    auto_retry_end: event("auto_retry_end", { success: z.boolean(), attempt: z.number(), finalError: z.string().optional() }),
    auto_compaction_start: event("auto_compaction_start", { reason: z.enum(["threshold", "overflow"]) }),
    auto_compaction_end: event("auto_compaction_end", { result: compactionResult.optional(), aborted: z.boolean(), willRetry: z.boolean(), errorMessage: z.string().optional() }),
    compaction_start: event("compaction_start", { reason: compactionReason }),
    compaction_end: event("compaction_end", {
      reason: compactionReason,
      before: z.number(),
      after: z.number(),
      result: compactionResult.optional(),
      aborted: z.boolean(),
      willRetry: z.boolean(),
      errorMessage: z.string().optional(),
    }),
    checkpoint_created: event("checkpoint_created", {
      entryId: z.string(),
      files: z.array(z.object({ path: z.string(), change: z.enum(["added", "modified", "deleted", "renamed"]), from: z.string().optional() })),
    }),
    thinking_level_changed: event("thinking_level_changed", { level: z.enum(thinkingLevels) }),
    session_info_changed: event("session_info_changed", { name: z.string().optional() }),
    bash_execution_update: event("bash_execution_update", { id: requestId().optional(), delta: z.string() }),
    todo_reminder: event("todo_reminder", { todos: z.array(todoTask), phases: z.array(todoPhase) }),
    todo_auto_clear: event("todo_auto_clear", { phases: z.array(todoPhase) }),
    todos_changed: event("todos_changed", { phases: z.array(todoPhase) }),
    host_tool_call: event("host_tool_call", { id: z.string(), toolCallId: z.string(), toolName: z.string(), arguments: z.record(z.string(), z.unknown()) }),
    mcp_server_status: event("mcp_server_status", {
      name: z.string(),
      source: z.enum(["config", "rpc", "acp"]),
      status: z.enum(["connecting", "connected", "failed", "disabled"]),
      tools: z.array(z.string()),
      error: z.string().optional(),
    }),
    host_tool_cancel: event("host_tool_cancel", { id: z.string(), targetId: z.string() }),
    host_uri_request: event("host_uri_request", { id: z.string(), operation: z.enum(["read", "write"]), url: z.string(), content: z.string().optional() }),
    host_uri_cancel: event("host_uri_cancel", { id: z.string(), targetId: z.string() }),
    extension_ui_request: event("extension_ui_request", {
      id: z.string(),
      method: z.enum(["select", "confirm", "input", "editor", "cancel", "notify", "setStatus", "setWidget", "setTitle", "set_editor_text", "open_url"]),
      title: z.string().optional(),
      message: z.string().optional(),
      options: z.array(z.string()).optional(),
      placeholder: z.string().optional(),
      prefill: z.string().optional(),
      secret: z.boolean().optional(),
      timeout: z.number().optional(),
      targetId: z.string().optional(),
      notifyType: z.enum(["info", "warning", "error"]).optional(),
      statusKey: z.string().optional(),
      statusText: z.string().optional(),
      widgetKey: z.string().optional(),
      widgetLines: z.array(z.string()).optional(),
      widgetPlacement: z.enum(["aboveEditor", "belowEditor"]).optional(),
      text: z.string().optional(),
      url: z.string().optional(),
      instructions: z.string().optional(),
      credential: z.enum(["oauth", "api-key"]).optional(),
    }),
    subagent_lifecycle: event("subagent_lifecycle", {
      agentId: z.string(),
      status: z.enum(["started", "completed", "failed", "aborted"]),
      task: z.string(),
      depth: z.number(),
      sessionFile: z.string().optional(),
    }),
    subagent_progress: event("subagent_progress", { agentId: z.string(), text: z.string() }),
    subagent_event: event("subagent_event", { agentId: z.string(), event: z.object({ type: z.string() }).loose() }),
  };
});
