/**
 * Agent events → stdout frames. Almost every event is already in Pi's frame
 * shape; the exception is message_update, whose cost must stay constant per
 * delta: it carries the delta, the usage so far and a light message header,
 * unless the host asked for Pi's full snapshots with --message-snapshots.
 */
import type { AgentEvent } from "../agent/events.ts";

export function toFrame(event: AgentEvent, snapshots: boolean): object {
  if (event.type !== "message_update") return event;
  const { message, assistantMessageEvent } = event;
  // cumulative, as Pi 1.6 hosts read it from every delta; the writer serialises the frame at once, so no copy
  const { usage } = message;
  if (snapshots) {
    return { type: "message_update", message, assistantMessageEvent: { ...assistantMessageEvent, partial: message }, usage };
  }
  return {
    type: "message_update",
    message: { role: "assistant", provider: message.provider, model: message.model },
    assistantMessageEvent,
    usage,
  };
}
