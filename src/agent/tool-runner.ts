/**
 * Runs the tool calls of one assistant message in order and reports each as
 * tool_execution_start/update/end plus its toolResult message. Between calls
 * it checks for steering: in interrupt mode `immediate`, a queued steer skips
 * the rest of the batch (each skipped call still gets a result the model sees).
 */
import type { AssistantMessage, ToolCall, ToolResultMessage } from "../core/messages.ts";
import type { Emit } from "./events.ts";
import type { GateVerdict, ToolServices } from "./loop.ts";
import { ToolError, type Tool, type ToolResult } from "../tools/types.ts";
import { redactDeep } from "../session/redact.ts";

/** What a tool batch runs with: the tools the request offered, what they get, and where results go. */
export interface ToolBatch {
  tools: readonly Tool[];
  services: ToolServices;
  emit: Emit;
  /** a tool's result message joins the context; `afterSave` runs once it is in the session file */
  append(message: ToolResultMessage, afterSave: () => void): void;
  /** true when a queued message should skip the rest of the batch */
  interrupts(): boolean;
  /** removes the secrets nova knows from tool output */
  redact: (text: string) => string;
  /** the permission gate: may refuse a call or change its arguments */
  gate?(tool: Tool, args: Record<string, unknown>, toolCallId: string, signal: AbortSignal): Promise<GateVerdict>;
  /** after a tool ran: may add to its result */
  afterTool?(tool: Tool, args: Record<string, unknown>, result: ToolResult, toolCallId: string): Promise<ToolResult>;
  /** runs before each tool (checkpoints); a failure is logged, the tool still runs */
  beforeTool?(tool: Tool, args: Record<string, unknown>): Promise<void>;
  signal: AbortSignal;
}

export async function runToolCalls(assistant: AssistantMessage, badArgs: Map<string, string>, batch: ToolBatch): Promise<ToolResultMessage[]> {
  const { emit, signal } = batch;
  const calls = assistant.content.filter((c): c is ToolCall => c.type === "toolCall");
  const results: ToolResultMessage[] = [];
  let skipReason: string | undefined;
  for (const call of calls) {
    const args = badArgs.get(call.id) ?? call.arguments;
    emit({ type: "tool_execution_start", toolCallId: call.id, toolName: call.name, args });
    let result: ToolResult;
    let durationMs: number | undefined;
    if (signal.aborted) result = errorResult("Tool call was not run: the turn was aborted.");
    else if (skipReason) result = errorResult(skipReason);
    else if (assistant.stopReason === "length") {
      // a `length` stop means the arguments may be cut off: running them could do half a job
      result = errorResult("Tool call was not run: the response hit the output token limit, so its arguments may be incomplete.");
    } else if (badArgs.has(call.id)) {
      result = errorResult(`Tool call was not run: its arguments are not a valid JSON object: ${truncate(badArgs.get(call.id)!, 200)}`);
    } else {
      const started = performance.now();
      result = redactResult(await execute(batch, call), batch.redact);
      durationMs = Math.round(performance.now() - started);
    }
    const isError = result.isError === true;
    const message: ToolResultMessage = {
      role: "toolResult",
      toolCallId: call.id,
      toolName: call.name,
      content: result.content,
      details: result.details,
      isError,
      timestamp: Date.now(),
    };
    // saved before tool_execution_end goes out: a host that saw the call finish finds its result in the session file
    batch.append(message, () =>
      emit({ type: "tool_execution_end", toolCallId: call.id, toolName: call.name, result, isError, ...(durationMs === undefined ? {} : { durationMs }) }),
    );
    results.push(message);
    if (!skipReason && batch.interrupts()) {
      skipReason = "Skipped due to queued user message.";
    }
  }
  return results;
}

async function execute(batch: ToolBatch, call: ToolCall): Promise<ToolResult> {
  const { signal } = batch;
  const tool = batch.tools.find((t) => t.name === call.name);
  if (!tool) return errorResult(`Tool "${call.name}" not found. Available tools: ${batch.tools.map((t) => t.name).join(", ")}.`);
  const onUpdate = (partialResult: ToolResult) => {
    batch.emit({ type: "tool_execution_update", toolCallId: call.id, toolName: call.name, args: call.arguments, partialResult: redactResult(partialResult, batch.redact) });
  };
  let args = call.arguments;
  let approved = false;
  if (batch.gate) {
    try {
      const verdict = await batch.gate(tool, args, call.id, signal);
      if ("refused" in verdict) return { ...errorResult(verdict.refused), details: verdict.details ?? { permissionDenied: true } };
      args = verdict.args;
      approved = verdict.approved === true;
    } catch (error) {
      if (error instanceof ToolError) return { ...errorResult(error.message), details: error.details };
      return errorResult(`Tool call was not run: its permission check failed: ${(error as Error)?.message ?? String(error)}`);
    }
  }
  try {
    await batch.beforeTool?.(tool, args);
  } catch (error) {
    process.stderr.write(`nova: before ${call.name}: ${(error as Error)?.message ?? String(error)}\n`);
  }
  // a tool's own question (bash, MCP) names the call it is about; one the gate already had answered is not asked again
  const ask = batch.services.askPermission;
  const askPermission: typeof ask = approved ? async () => true : ask && ((question, s) => ask({ toolCallId: call.id, ...question }, s));
  try {
    const result = await tool.execute(args, { ...batch.services, askPermission, signal, onUpdate, toolCallId: call.id });
    const settled = signal.aborted && !result.isError ? { ...result, isError: false } : result;
    return batch.afterTool ? await batch.afterTool(tool, args, settled, call.id) : settled;
  } catch (error) {
    if (error instanceof ToolError) return { ...errorResult(error.message), details: error.details };
    if (signal.aborted) return errorResult("Tool call was aborted.");
    return errorResult(`Tool "${call.name}" failed: ${(error as Error)?.message ?? String(error)}`);
  }
}

/**
 * A tool's output with the secrets nova knows removed, before it reaches
 * events, the session file or the provider (`env` in bash would show a key
 * the environment still had). Image data is left alone: base64 is no secret.
 */
function redactResult(result: ToolResult, redact: (text: string) => string): ToolResult {
  const content = result.content.map((c) => (c.type === "text" ? { ...c, text: redact(c.text) } : c));
  return result.details === undefined ? { ...result, content } : { ...result, content, details: redactDeep(result.details, redact) };
}

export function errorResult(text: string): ToolResult {
  return { content: [{ type: "text", text }], isError: true };
}

function truncate(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}
