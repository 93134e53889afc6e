/**
 * Incremental Server-Sent Events parser (WHATWG rules): `data:` lines of one
 * event are joined with `\n`, `event:` names it, `:` lines are comments, a
 * blank line dispatches. An event still pending when the stream ends is
 * dispatched too, since some servers omit the final blank line.
 */
import { readLineBatches } from "./lines.ts";

export interface SseEvent {
  event?: string;
  data: string;
}

/** The events of each read of the body together: one await per read, not per event, for a decoder that loops over them. */
export async function* parseSseBatches(body: ReadableStream<Uint8Array>): AsyncGenerator<SseEvent[]> {
  let event: string | undefined;
  const data: string[] = [];
  for await (const lines of readLineBatches(body)) {
    const batch: SseEvent[] = [];
    for (const line of lines) {
      if (line.length === 0) {
        if (data.length > 0) batch.push({ event, data: data.length === 1 ? data[0]! : data.join("\n") });
        event = undefined;
        data.length = 0;
        continue;
      }
      if (line.charCodeAt(0) === 58 /* ":" */) continue;
      const colon = line.indexOf(":");
      const field = colon === -1 ? line : line.slice(0, colon);
      let value = colon === -1 ? "" : line.slice(colon + 1);
      if (value.charCodeAt(0) === 32) value = value.slice(1);
      if (field === "data") data.push(value);
      else if (field === "event") event = value;
    }
    if (batch.length > 0) yield batch;
  }
  if (data.length > 0) yield [{ event, data: data.join("\n") }];
}

/** One event at a time. */
export async function* parseSse(body: ReadableStream<Uint8Array>): AsyncGenerator<SseEvent> {
  for await (const batch of parseSseBatches(body)) yield* batch;
}
