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

export async function* parseSse(body: ReadableStream<Uint8Array>): AsyncGenerator<SseEvent> {
  let event: string | undefined;
  const data: string[] = [];
  for await (const lines of readLineBatches(body)) {
    for (const line of lines) {
      if (line.length === 0) {
        if (data.length > 0) yield { event, data: data.length === 1 ? data[0]! : data.join("\n") };
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
  }
  if (data.length > 0) yield { event, data: data.join("\n") };
}
