/**
 * Agent events → stdout frames, for every front end that writes rpc's frames
 * (rpc, json). Almost every event is already in Pi's frame shape; the
 * exception is message_update, whose cost must stay constant per delta: it
 * carries the delta, the usage so far and a light message header, unless the
 * host asked for Pi's full snapshots with --message-snapshots. Typed by shape, so the wire
 * layer needs nothing from the agent's.
 */

interface MessageUpdate {
  type: "message_update";
  message: { provider: string; model: string; usage: object };
  assistantMessageEvent: object;
}

export function toFrame(event: { type: string } | MessageUpdate, snapshots: boolean): object {
  if (!isUpdate(event)) return event;
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

function isUpdate(event: { type: string }): event is MessageUpdate {
  return event.type === "message_update";
}
