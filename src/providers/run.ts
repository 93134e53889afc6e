/**
 * The shell around every provider: sends the request, feeds the body to the
 * provider's decoder, and guarantees the stream ends with exactly one `stop`
 * or `error` event. Whatever was already yielded stays yielded; a failure
 * after that (dropped connection, stall, bad bytes) becomes the final error:
 * connection trouble is retryable, a response we cannot read is not.
 * When `signal` aborts, the final event is an error "Request was aborted"
 * (retryable: false); callers tell it apart by `signal.aborted`.
 */
import { ProviderFailure } from "./errors.ts";
import { type HttpRequest, postJson } from "./http.ts";
import { type ProviderError, type ProviderEvents, type StreamLimits, eventsOf } from "./types.ts";

/** A body's events; a decoder may yield the events of one read of the body together (one await for all of them). */
export type Decoder = (body: ReadableStream<Uint8Array>) => AsyncIterable<ProviderEvents>;

export async function* runProvider(build: () => HttpRequest, decode: Decoder, limits: StreamLimits, signal: AbortSignal): AsyncGenerator<ProviderEvents> {
  let request: HttpRequest;
  try {
    request = build();
  } catch (e) {
    yield { type: "error", error: { message: `could not build the request: ${(e as Error).message}`, retryable: false } };
    return;
  }
  try {
    if (signal.aborted) throw signal.reason;
    const body = await postJson(request, signal, limits);
    for await (const item of decode(body)) {
      // the events of one read are handed on together, up to and with the one that ends the stream
      const events = eventsOf(item);
      const end = events.findIndex((event) => event.type === "stop" || event.type === "error");
      yield end === -1 ? events : events.slice(0, end + 1);
      if (end !== -1) return;
    }
    yield { type: "error", error: { message: "the response ended before the provider finished it", retryable: true } };
  } catch (e) {
    yield { type: "error", error: toProviderError(e, signal) };
  }
}

function toProviderError(e: unknown, signal: AbortSignal): ProviderError {
  if (signal.aborted) return { message: "Request was aborted", retryable: false };
  if (e instanceof ProviderFailure) return e.error;
  // connection and read failures arrive as ProviderFailure; anything else is bytes we could not make sense of
  const message = e instanceof Error ? e.message : String(e);
  return { message: `malformed response from the provider: ${message}`, retryable: false };
}
