/**
 * A stored conversation as the session/update notifications an editor would
 * have seen live, so session/load can rebuild its transcript: user and agent
 * chunks, thoughts, each tool call followed by its outcome, and the plan.
 */
import type { AgentMessage } from "../core/messages.ts";
import type { TodoPhase } from "../core/todos.ts";
import { changedLine, planEntries, resultContent, toolDiffs, toolView } from "./tool-calls.ts";

type Update = Record<string, unknown>;

export function replayUpdates(messages: AgentMessage[], cwd: string): Update[] {
  const updates: Update[] = [];
  const diffsById = new Map<string, ReturnType<typeof toolDiffs>>();
  messages.forEach((message, index) => {
    switch (message.role) {
      case "user": {
        const blocks = typeof message.content === "string" ? [{ type: "text" as const, text: message.content }] : message.content;
        for (const content of blocks) updates.push({ sessionUpdate: "user_message_chunk", content: chunkOf(content) });
        return;
      }
      case "assistant":
        for (const part of message.content) {
          if (part.type === "text") updates.push({ sessionUpdate: "agent_message_chunk", content: { type: "text", text: part.text } });
          else if (part.type === "thinking" && !part.redacted) updates.push({ sessionUpdate: "agent_thought_chunk", content: { type: "text", text: part.thinking } });
          else if (part.type === "toolCall") {
            const diffs = toolDiffs(part.name, part.arguments, cwd, null);
            diffsById.set(part.id, diffs);
            const view = toolView(part.name, part.arguments, cwd);
            updates.push({
              sessionUpdate: "tool_call",
              toolCallId: part.id,
              ...view,
              status: "pending",
              rawInput: part.arguments,
              ...(diffs.length > 0 ? { content: diffs } : {}),
            });
          }
        }
        return;
      case "toolResult": {
        const diffs = message.isError ? [] : (diffsById.get(message.toolCallId) ?? []);
        const update: Update = {
          sessionUpdate: "tool_call_update",
          toolCallId: message.toolCallId,
          status: message.isError ? "failed" : "completed",
          content: [...diffs, ...resultContent(message)],
        };
        const line = changedLine(message.details);
        const first = diffs[0];
        if (line && first?.type === "diff") update.locations = [{ path: first.path, line }];
        updates.push(update);
        // a stored session has no events: the todo tool's saved result is the list it set
        const phases = message.toolName === "todo" && !message.isError ? (message.details as { phases?: TodoPhase[] } | undefined)?.phases : undefined;
        if (Array.isArray(phases)) updates.push({ sessionUpdate: "plan", entries: planEntries(phases) });
        return;
      }
      case "bashExecution": {
        const output = message.output || "(no output)";
        updates.push({
          sessionUpdate: "tool_call",
          toolCallId: `user-bash-${index}`,
          title: message.command,
          kind: "execute",
          status: message.exitCode === 0 ? "completed" : "failed",
          content: [{ type: "content", content: { type: "text", text: output } }],
          rawInput: { command: message.command },
        });
        return;
      }
      case "compactionSummary":
      case "branchSummary":
        updates.push({ sessionUpdate: "agent_message_chunk", content: { type: "text", text: `Summary of the earlier conversation:\n\n${message.summary}\n\n` } });
        return;
    }
  });
  return updates;
}

function chunkOf(content: { type: "text"; text: string } | { type: "image"; data: string; mimeType: string }) {
  return content.type === "text" ? { type: "text", text: content.text } : { type: "image", data: content.data, mimeType: content.mimeType };
}
