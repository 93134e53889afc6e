/**
 * Runs the tool calls of one assistant message in order and reports each as
 * tool_execution_start/update/end plus its toolResult message. Between calls
 * it checks for steering: in interrupt mode `immediate`, a queued steer skips
 * the rest of the batch (each skipped call still gets a result the model sees).
 */
import type { AssistantMessage, ToolCall, ToolResultMessage } from "../core/messages.ts";
import type { LoopHost } from "./loop.ts";
import { ToolError, type ToolResult } from "../tools/types.ts";

export async function runToolCalls(
  host: LoopHost,
  assistant: AssistantMessage,
  badArgs: Map<string, string>,
  signal: AbortSignal,
): Promise<ToolResultMessage[]> {
  const calls = assistant.content.filter((c): c is ToolCall => c.type === "toolCall");
  const results: ToolResultMessage[] = [];
  let skipReason: string | undefined;
  for (const call of calls) {
    const args = badArgs.get(call.id) ?? call.arguments;
    host.sink.emit({ type: "tool_execution_start", toolCallId: call.id, toolName: call.name, args });
    let result: ToolResult;
    if (signal.aborted) result = errorResult("Tool call was not run: the turn was aborted.");
    else if (skipReason) result = errorResult(skipReason);
    else if (assistant.stopReason === "length") {
      // a `length` stop means the arguments may be cut off: running them could do half a job
      result = errorResult("Tool call was not run: the response hit the output token limit, so its arguments may be incomplete.");
    } else if (badArgs.has(call.id)) {
      result = errorResult(`Tool call was not run: its arguments are not a valid JSON object: ${truncate(badArgs.get(call.id)!, 200)}`);
    } else result = await execute(host, call, signal);
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
    host.addMessage(message, false, () => host.sink.emit({ type: "tool_execution_end", toolCallId: call.id, toolName: call.name, result, isError }));
    results.push(message);
    if (!skipReason && host.interruptMode === "immediate" && host.hasSteering()) {
      skipReason = "Skipped due to queued user message.";
    }
  }
  return results;
}

async function execute(host: LoopHost, call: ToolCall, signal: AbortSignal): Promise<ToolResult> {
  const tool = host.findTool(call.name);
  if (!tool) return errorResult(`Tool "${call.name}" not found. Available tools: ${host.toolNames().join(", ")}.`);
  const onUpdate = (partialResult: ToolResult) =>
    host.sink.emit({ type: "tool_execution_update", toolCallId: call.id, toolName: call.name, args: call.arguments, partialResult });
  try {
    const result = await tool.execute(call.arguments, host.toolContext(signal, onUpdate, call.id));
    return signal.aborted && !result.isError ? { ...result, isError: false } : result;
  } catch (error) {
    if (error instanceof ToolError) return { ...errorResult(error.message), details: error.details };
    if (signal.aborted) return errorResult("Tool call was aborted.");
    return errorResult(`Tool "${call.name}" failed: ${(error as Error)?.message ?? String(error)}`);
  }
}

export function errorResult(text: string): ToolResult {
  return { content: [{ type: "text", text }], isError: true };
}

function truncate(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}
