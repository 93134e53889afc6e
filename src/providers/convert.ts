/**
 * Conversions every wire format shares: the agent's context-only messages
 * become user text, broken turns are dropped, every tool call gets a result,
 * and images become text for models that cannot see.
 */
import type { AgentMessage, AssistantMessage, BashExecutionMessage, CustomMessage, ImageContent, TextContent, ToolResultMessage, UserMessage } from "../core/messages.ts";
import type { Model, ProviderEvent } from "./types.ts";
import { blockText } from "../core/text.ts";

/** The payload of a `usage` event. */
export type UsageUpdate = Extract<ProviderEvent, { type: "usage" }>["usage"];

/** What reaches a provider: only these three roles. */
export type WireMessage = UserMessage | AssistantMessage | ToolResultMessage;

/**
 * Prepares history for a request. Errored or aborted assistant turns are
 * incomplete, so they are dropped with their tool results. Providers want
 * each call's result right after its turn, exactly once: a call left without
 * a result there (the turn was interrupted) gets an error result, and a
 * result that is not in that place (orphaned, late or repeated) is dropped.
 */
export function prepareMessages(messages: AgentMessage[], model: Model): WireMessage[] {
  const out: WireMessage[] = [];
  // calls of the last kept assistant turn still waiting for their result
  let pending: { id: string; name: string }[] = [];
  const closePending = () => {
    for (const call of pending) out.push(missingResult(call.id, call.name));
    pending = [];
  };
  for (const message of messages) {
    if (message.role === "toolResult") {
      if (!pending.some((call) => call.id === message.toolCallId)) continue;
      pending = pending.filter((call) => call.id !== message.toolCallId);
      out.push(model.input.includes("image") ? message : { ...message, content: blindContent(message.content) });
      continue;
    }
    closePending();
    if (message.role === "assistant") {
      const calls = message.content.flatMap((c) => (c.type === "toolCall" ? [{ id: c.id, name: c.name }] : []));
      if (message.stopReason === "error" || message.stopReason === "aborted") continue;
      pending = calls;
      out.push(message);
    } else if (message.role === "user" || message.role === "custom") {
      // Pi's extension messages reach the model as the user's
      const content = userBlocks(message);
      out.push({ role: "user", content: model.input.includes("image") ? content : blindContent(content), timestamp: message.timestamp });
    } else if (message.role === "bashExecution" && message.excludeFromContext) {
    } else {
      out.push({ role: "user", content: [{ type: "text", text: contextText(message) }], timestamp: message.timestamp });
    }
  }
  closePending();
  return out;
}

function missingResult(toolCallId: string, toolName: string): ToolResultMessage {
  return {
    role: "toolResult",
    toolCallId,
    toolName,
    content: [{ type: "text", text: "No result provided: the tool call was interrupted." }],
    isError: true,
    timestamp: 0,
  };
}

function blindContent(content: (TextContent | ImageContent)[]): (TextContent | ImageContent)[] {
  return content.map((c) => (c.type === "image" ? { type: "text", text: "(image omitted: this model does not accept images)" } : c));
}

/** The user-visible text of a bash run, a compaction summary or a branch summary. */
export function contextText(message: Exclude<AgentMessage, WireMessage | CustomMessage>): string {
  switch (message.role) {
    case "bashExecution":
      return bashText(message);
    case "compactionSummary":
      return `The conversation history before this point was compacted into the following summary:\n\n<summary>\n${message.summary}\n</summary>`;
    case "branchSummary":
      return `The following is a summary of a branch that this conversation came back from:\n\n<summary>\n${message.summary}\n</summary>`;
  }
}

/** Word for word what Pi sends, so a session resumed in either agent gives the model the same text. */
function bashText(message: BashExecutionMessage): string {
  let text = `Ran \`${message.command}\`\n`;
  text += message.output ? `\`\`\`\n${message.output}\n\`\`\`` : "(no output)";
  if (message.cancelled) text += "\n\n(command cancelled)";
  else if (message.exitCode !== undefined && message.exitCode !== 0) text += `\n\nCommand exited with code ${message.exitCode}`;
  if (message.truncated && message.fullOutputPath) text += `\n\n[Output truncated. Full output: ${message.fullOutputPath}]`;
  return text;
}

/** User content as blocks (a plain string becomes one text block). */
export function userBlocks(message: UserMessage | CustomMessage): (TextContent | ImageContent)[] {
  return typeof message.content === "string" ? [{ type: "text", text: message.content }] : message.content;
}

export function images(content: (TextContent | ImageContent)[]): ImageContent[] {
  return content.filter((c): c is ImageContent => c.type === "image");
}

/** A tool result's text, never empty: providers reject empty tool output. */
export function toolResultText(message: ToolResultMessage): string {
  const text = blockText(message.content, "\n");
  if (text.length > 0) return text;
  return images(message.content).length > 0 ? "(see attached image)" : "(no output)";
}

export function dataUrl(image: ImageContent): string {
  return `data:${image.mimeType};base64,${image.data}`;
}

/** Whether an assistant turn came from this very model, so its signatures are valid to send back. */
export function sameModel(message: AssistantMessage, model: Model): boolean {
  return message.api === model.api && message.model === model.id;
}

/**
 * Output tokens as billed. Some servers leave reasoning tokens out of their
 * output count (xAI counts them only in the total), so when the total says
 * more than input + output, the difference is output too: the message's
 * usage then adds up to the provider's own total.
 */
export function billedOutput(output: number, input: number, total: number | undefined): number {
  return typeof total === "number" && total - input > output ? total - input : output;
}

/** A fresh tool-call id for providers that send none. */
export function newToolCallId(): string {
  return `call_${crypto.randomUUID().replaceAll("-", "").slice(0, 24)}`;
}
