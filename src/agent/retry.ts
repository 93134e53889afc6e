/** Backoff for automatic retries, and a sleep that an abort cuts short. */
import type { ProviderError } from "../providers/types.ts";

export interface RetrySettings {
  maxRetries: number;
  baseDelayMs: number;
  maxDelayMs: number;
}

/** Exponential backoff; a server's retry-after wins when it says more. */
export function retryDelay(error: ProviderError, attempt: number, settings: RetrySettings): number {
  const backoff = settings.baseDelayMs * 2 ** (attempt - 1);
  const asked = error.retryAfterSeconds !== undefined ? error.retryAfterSeconds * 1000 : 0;
  return Math.min(Math.max(backoff, asked), settings.maxDelayMs);
}

/** Resolves true after `ms`, or false as soon as the signal aborts. */
export function sleep(ms: number, signal: AbortSignal): Promise<boolean> {
  if (signal.aborted) return Promise.resolve(false);
  return new Promise((resolve) => {
    const done = (finished: boolean) => {
      clearTimeout(timer);
      signal.removeEventListener("abort", onAbort);
      resolve(finished);
    };
    const onAbort = () => done(false);
    const timer = setTimeout(() => done(true), ms);
    signal.addEventListener("abort", onAbort, { once: true });
  });
}
