/**
 * Agent events → stdout frames, for every front end that writes rpc's frames
 * (rpc, json). Almost every event is already in Pi's frame shape; the
 * exception is message_update, whose cost must stay constant per delta: it
 * carries the delta and a light message header, unless the host asked for
 * Pi's full snapshots with --message-snapshots. Typed by shape, so the wire
 * layer needs nothing from the agent's.
 */

interface MessageUpdate {
  type: "message_update";
  message: { provider: string; model: string };
  assistantMessageEvent: object;
}

export function toFrame(event: { type: string } | MessageUpdate, snapshots: boolean): object {
  if (!isUpdate(event)) return event;
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

function isUpdate(event: { type: string }): event is MessageUpdate {
  return event.type === "message_update";
}
