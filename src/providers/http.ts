/**
 * The HTTP edge every provider shares: POST a JSON body with the caller's
 * abort signal, fail non-2xx answers as `ProviderFailure`, and guard the
 * response body against stalls. Keys travel only in headers here; nothing in
 * this file logs.
 */
import { ProviderFailure, httpError, networkError } from "./errors.ts";
import { DEFAULT_MAX_LINE_BYTES, withLineCap } from "./line-cap.ts";
import type { ProviderError, StreamLimits } from "./types.ts";

export interface HttpRequest {
  url: string;
  headers: Record<string, string>;
  body: unknown;
}

export function stallError(idleTimeoutMs: number): ProviderError {
  return { message: `stream stalled: no data for ${idleTimeoutMs / 1000} s`, retryable: true };
}

/**
 * POSTs and returns the body stream. Waiting for the response headers, an
 * error body and every chunk of the stream are guarded by the same idle
 * timeout: a server that never answers is as stuck as one that stops
 * mid-stream. One streamed line is capped at `maxLineBytes`.
 */
export async function postJson(request: HttpRequest, signal: AbortSignal, limits: StreamLimits): Promise<ReadableStream<Uint8Array>> {
  const { idleTimeoutMs } = limits;
  const idle = new AbortController();
  const timer = setTimeout(() => idle.abort(), idleTimeoutMs);
  let res: Response;
  try {
    res = await fetch(request.url, {
      method: "POST",
      headers: { "content-type": "application/json", ...request.headers },
      body: JSON.stringify(request.body),
      signal: AbortSignal.any([signal, idle.signal]),
    });
  } catch (e) {
    if (signal.aborted) throw e;
    if (idle.signal.aborted) throw new ProviderFailure(stallError(idleTimeoutMs));
    throw networkError(e, request.url);
  } finally {
    clearTimeout(timer);
  }
  if (!res.ok) throw new ProviderFailure(await httpError(res, idleTimeoutMs));
  if (!res.body) throw new ProviderFailure({ message: `HTTP ${res.status} with an empty body`, retryable: true });
  return withLineCap(withIdleTimeout(res.body, idleTimeoutMs, request.url), limits.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES);
}

/** Passes chunks through; errors with a retryable stall when none arrives for `idleTimeoutMs`. */
export function withIdleTimeout(body: ReadableStream<Uint8Array>, idleTimeoutMs: number, url: string): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      let timer: ReturnType<typeof setTimeout> | undefined;
      const stalled = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new ProviderFailure(stallError(idleTimeoutMs))), idleTimeoutMs);
      });
      try {
        const { done, value } = await Promise.race([reader.read(), stalled]);
        if (done) controller.close();
        else controller.enqueue(value);
      } catch (e) {
        reader.cancel(e).catch(() => {});
        throw e instanceof ProviderFailure ? e : networkError(e, url);
      } finally {
        clearTimeout(timer);
      }
    },
    cancel(reason) {
      return reader.cancel(reason);
    },
  });
}

/** Bearer auth plus the configured extra headers. */
export function bearerHeaders(auth: { apiKey?: string; headers?: Record<string, string> }): Record<string, string> {
  return { ...(auth.apiKey ? { authorization: `Bearer ${auth.apiKey}` } : {}), ...auth.headers };
}

/** `base` + `path` without doubled or missing slashes. */
export function joinUrl(base: string, path: string): string {
  return `${base.replace(/\/+$/, "")}/${path.replace(/^\/+/, "")}`;
}
