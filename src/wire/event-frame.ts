/**
 * Agent events → stdout frames, for every front end that writes rpc's frames
 * (rpc, json). Almost every event is already in Pi's frame shape; the
 * exception is message_update, whose cost must stay constant per delta: it
 * carries the delta, the usage so far and a light message header, unless the
 * host asked for Pi's full snapshots with --message-snapshots. Typed by shape, so the wire
 * layer needs nothing from the agent's.
 */

import { Serialized } from "./writer.ts";

interface UsageShape {
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
  totalTokens: number;
  cost: { input: number; output: number; cacheRead: number; cacheWrite: number; total: number };
}

interface MessageUpdate {
  type: "message_update";
  message: { provider: string; model: string; usage: UsageShape };
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
  // what stays the same from delta to delta is serialised once: only the delta event is new in each frame
  return new Serialized(
    `{"type":"message_update","message":${headerJson(message.provider, message.model)},"assistantMessageEvent":${JSON.stringify(assistantMessageEvent)},"usage":${usageJson(usage)}}`,
  );
}

let header = { provider: "", model: "", json: "" };

/** `{"role":"assistant","provider":…,"model":…}`, made again only when the model changes */
function headerJson(provider: string, model: string): string {
  if (header.provider !== provider || header.model !== model || header.json === "") {
    header = { provider, model, json: JSON.stringify({ role: "assistant", provider, model }) };
  }
  return header.json;
}

let lastUsage = { input: Number.NaN, output: 0, cacheRead: 0, cacheWrite: 0, totalTokens: 0, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 }, json: "" };

/** The usage's JSON, made again only when one of its numbers changed (the assembler updates it in place). */
function usageJson(u: UsageShape): string {
  const last = lastUsage;
  const c = u.cost;
  const l = last.cost;
  const same =
    u.input === last.input &&
    u.output === last.output &&
    u.cacheRead === last.cacheRead &&
    u.cacheWrite === last.cacheWrite &&
    u.totalTokens === last.totalTokens &&
    c.input === l.input &&
    c.output === l.output &&
    c.cacheRead === l.cacheRead &&
    c.cacheWrite === l.cacheWrite &&
    c.total === l.total;
  if (!same) lastUsage = { ...u, cost: { ...c }, json: JSON.stringify(u) };
  return lastUsage.json;
}

function isUpdate(event: { type: string }): event is MessageUpdate {
  return event.type === "message_update";
}
