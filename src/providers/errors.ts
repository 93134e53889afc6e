/**
 * Turns what providers send when something goes wrong (HTTP status, headers,
 * error bodies, mid-stream error events) into one `ProviderError`, so the
 * agent loop decides on retries and compaction without knowing wire shapes.
 */
import type { ProviderError } from "./types.ts";

/** Thrown inside a provider stream to end it with this exact error. */
export class ProviderFailure extends Error {
  constructor(readonly error: ProviderError) {
    super(error.message);
  }
}

/** The 4xx answers that name a passing condition; every other 4xx is the request's fault and never retried. */
const RETRYABLE_4XX = new Set([408, 409, 429]);
/** Error codes and types that name a passing condition, for errors that arrive without an HTTP status (mid-stream). */
const TRANSIENT_KIND = /overloaded|resource[_ ]exhausted|unavailable|rate[_ ]limit|server[_ ]error|api[_ ]error|internal|timeout/i;

/** How an error body says the provider's filter or the model declined (Azure's content_filter, Anthropic's refusal). */
const REFUSAL = /refusal|declined to answer|content_filter/;

/** Texts and codes that OpenAI, Anthropic, Gemini, Ollama, llama.cpp and OpenRouter use for a prompt that does not fit. */
const CONTEXT_OVERFLOW = [
  /context[_ ]length[_ ]exceeded/i,
  /maximum context length/i,
  /prompt is too long/i,
  /exceeds? the (available )?context (window|size|length)/i,
  /exceeds the (maximum|max) number of tokens/i,
  /input token count.*exceeds/i,
  /exceed_context_size/i,
  /context window (is )?exceeded/i,
  /too many tokens/i,
  /input length and `?max_tokens`? exceed context limit/i,
  /input length exceeds/i,
  /reduce the length of the (messages|prompt)/i,
];

export function isContextOverflow(text: string): boolean {
  return CONTEXT_OVERFLOW.some((re) => re.test(text));
}

/**
 * An error reported by the provider. With an HTTP status the status alone
 * decides the retry (a proxy may label a 401 `server_error`); without one,
 * `kind`, the provider's own code or type (`overloaded_error`,
 * `rate_limit_exceeded`, …), does. Both count for overflow detection.
 */
export function classifyError(message: string, kind = "", status?: number): ProviderError {
  const both = `${kind} ${message}`;
  const retryable = status !== undefined ? RETRYABLE_4XX.has(status) || status >= 500 : TRANSIENT_KIND.test(kind) || /overloaded/i.test(message);
  const error: ProviderError = { message, retryable };
  if (status !== undefined) error.status = status;
  if (isContextOverflow(both)) {
    error.contextOverflow = true;
    error.retryable = false;
  }
  if (REFUSAL.test(message)) error.kind = "refusal";
  return error;
}

/** `retry-after-ms`, or `retry-after` as seconds or an HTTP date, in seconds from `now`. */
export function parseRetryAfter(headers: Headers, now = Date.now()): number | undefined {
  const ms = Number(headers.get("retry-after-ms") ?? NaN);
  if (Number.isFinite(ms) && ms >= 0) return ms / 1000;
  const value = headers.get("retry-after")?.trim();
  if (!value) return undefined;
  if (/^\d+(\.\d+)?$/.test(value)) return Number(value);
  const date = Date.parse(value);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, Math.ceil((date - now) / 1000));
}

/** The human part of an error body: `{error:{message}}`, `{error:"…"}`, `{message}`, or the text itself. */
export function errorBodyText(body: string): { message: string; kind: string } {
  try {
    const json = JSON.parse(body) as unknown;
    const parsed = errorFromJson(Array.isArray(json) ? json[0] : json);
    if (parsed) return parsed;
  } catch {
    // not JSON: the raw text is the message
  }
  const text = body.trim();
  return { message: text.length > 500 ? `${text.slice(0, 500)}…` : text, kind: "" };
}

/** Reads an error object in any of the providers' shapes; undefined when `value` carries none. */
export function errorFromJson(value: unknown): { message: string; kind: string } | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const v = value as Record<string, unknown>;
  const inner = v.error;
  if (typeof inner === "string") return { message: inner, kind: "" };
  if (typeof inner === "object" && inner !== null) {
    const e = inner as Record<string, unknown>;
    const kind = [e.type, e.code, e.status].filter((x) => typeof x === "string").join(" ");
    const message = typeof e.message === "string" ? e.message : JSON.stringify(inner);
    return { message, kind };
  }
  if (typeof v.message === "string") return { message: v.message, kind: typeof v.code === "string" ? v.code : "" };
  return undefined;
}

/** How much of an error body is kept; the rest is not read. */
export const ERROR_BODY_KEEP = 1024 * 1024;

/**
 * Reads an error body: at most `keep` bytes as text (the rest is cancelled,
 * never read), under the same idle timeout as a stream. A stall ends the
 * read with what arrived so far instead of hanging the turn.
 */
export async function readErrorBody(
  body: ReadableStream<Uint8Array> | null,
  idleTimeoutMs: number,
  keep = ERROR_BODY_KEEP,
): Promise<{ text: string; cut: boolean; stalled: boolean }> {
  if (!body) return { text: "", cut: false, stalled: false };
  const reader = body.getReader();
  const parts: Uint8Array[] = [];
  let size = 0;
  let cut = false;
  let stalled = false;
  try {
    while (size < keep) {
      let timer: ReturnType<typeof setTimeout> | undefined;
      const timeout = new Promise<"stalled">((resolve) => {
        timer = setTimeout(() => resolve("stalled"), idleTimeoutMs);
      });
      const next = await Promise.race([reader.read(), timeout]).finally(() => clearTimeout(timer));
      if (next === "stalled") {
        stalled = true;
        break;
      }
      if (next.done) break;
      const room = keep - size;
      if (next.value.length > room) cut = true;
      parts.push(next.value.length > room ? next.value.subarray(0, room) : next.value);
      size += Math.min(room, next.value.length);
      if (size >= keep) cut = true;
    }
  } catch {
    // a broken connection while reading the error body: what arrived is the message
  } finally {
    reader.cancel().catch(() => {});
  }
  return { text: new TextDecoder().decode(Buffer.concat(parts)), cut, stalled };
}

/**
 * A failed connection or read, naming the URL and the cause. A refused
 * connection, an unknown host or a bad certificate is a mistake in the
 * config that no retry fixes, so it fails at once; a reset or a timeout may
 * pass, so it is retried.
 */
export function networkError(e: unknown, url: string): ProviderFailure {
  const code = typeof (e as { code?: unknown })?.code === "string" ? (e as { code: string }).code : "";
  // Bun appends advice about `verbose: true` that means nothing to a user
  const raw = (e instanceof Error ? e.message : String(e)).replace(/\s*For more information, pass `verbose: true`.*$/s, "");
  const fatal = (cause: string) => new ProviderFailure({ message: `cannot connect to ${url}: ${cause}`, retryable: false });
  if (code === "ECONNREFUSED") return fatal("connection refused");
  if (code === "ENOTFOUND") return fatal(`unknown host ${hostOf(url)}`);
  if (/CERT|SSL|TLS|SELF_SIGNED/.test(code)) return fatal(`TLS certificate problem (${code})`);
  if (code === "ECONNRESET") return new ProviderFailure({ message: `connection to ${url} was reset`, retryable: true });
  return new ProviderFailure({ message: `network error talking to ${url}: ${raw}`, retryable: true });
}

function hostOf(url: string): string {
  try {
    return new URL(url).hostname;
  } catch {
    return url;
  }
}

/** An error object that arrived inside a 200 stream (any provider's shape). */
export function streamFailure(value: unknown): ProviderFailure {
  const parsed = errorFromJson(value) ?? { message: JSON.stringify(value), kind: "" };
  return new ProviderFailure(classifyError(parsed.message, parsed.kind));
}

/**
 * A failed HTTP response as a `ProviderError`. Reads at most 1 MiB of the
 * body, and stops waiting for it after `idleTimeoutMs` without data.
 */
export async function httpError(res: Response, idleTimeoutMs = 120_000): Promise<ProviderError> {
  const body = await readErrorBody(res.body, idleTimeoutMs);
  const { message, kind } = errorBodyText(body.text);
  const note = body.stalled ? " (the error body stalled)" : body.cut ? " (error body cut at 1 MiB)" : "";
  const error = classifyError(`HTTP ${res.status}: ${message || res.statusText || "no error message"}${note}`, kind, res.status);
  const retryAfter = parseRetryAfter(res.headers);
  if (retryAfter !== undefined) error.retryAfterSeconds = retryAfter;
  return error;
}
