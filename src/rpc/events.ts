/**
 * Agent events → stdout frames. Almost every event is already in Pi's frame
 * shape; the exception is message_update, whose cost must stay constant per
 * delta: it carries the delta and a light message header, unless the host
 * asked for Pi's full snapshots with --message-snapshots.
 */
import type { AgentEvent } from "../agent/events.ts";

export function toFrame(event: AgentEvent, snapshots: boolean): object {
  if (event.type !== "message_update") return event;
  const { message, assistantMessageEvent } = event;
  if (snapshots) {
    return { type: "message_update", message, assistantMessageEvent: { ...assistantMessageEvent, partial: message } };
  }
  return {
    type: "message_update",
    message: { role: "assistant", provider: message.provider, model: message.model },
    assistantMessageEvent,
  };
}
