import { describe, expect, test } from "bun:test";
import { classifyError, errorBodyText, httpError, isContextOverflow, parseRetryAfter } from "../../src/providers/errors.ts";

describe("parseRetryAfter", () => {
  const now = Date.parse("2026-01-01T00:00:00Z");
  const headers = (h: Record<string, string>) => new Headers(h);

  test("reads seconds, fractional seconds and milliseconds", () => {
    expect(parseRetryAfter(headers({ "retry-after": "12" }), now)).toBe(12);
    expect(parseRetryAfter(headers({ "retry-after": "0.5" }), now)).toBe(0.5);
    expect(parseRetryAfter(headers({ "retry-after-ms": "1500", "retry-after": "9" }), now)).toBe(1.5);
  });

  test("reads an HTTP date as seconds from now, never negative", () => {
    expect(parseRetryAfter(headers({ "retry-after": "Thu, 01 Jan 2026 00:00:30 GMT" }), now)).toBe(30);
    expect(parseRetryAfter(headers({ "retry-after": "Wed, 31 Dec 2025 23:00:00 GMT" }), now)).toBe(0);
  });

  test("ignores a missing or unreadable value", () => {
    expect(parseRetryAfter(headers({}), now)).toBeUndefined();
    expect(parseRetryAfter(headers({ "retry-after": "soon" }), now)).toBeUndefined();
  });
});

describe("classifyError", () => {
  test("408, 409, 429 and 5xx are retryable; every other 4xx is not", () => {
    for (const status of [408, 409, 429, 500, 502, 503, 529]) expect(classifyError("x", "", status).retryable).toBe(true);
    for (const status of [400, 401, 403, 404, 422, 425]) expect(classifyError("x", "", status).retryable).toBe(false);
  });

  test("with a status, the body's error type never makes a 4xx retryable", () => {
    for (const kind of ["server_error", "api_error", "overloaded_error", "rate_limit_exceeded"]) {
      expect(classifyError("Overloaded", kind, 401).retryable).toBe(false);
      expect(classifyError("Overloaded", kind, 400).retryable).toBe(false);
    }
  });

  test("overloaded and rate-limit kinds are retryable without a status", () => {
    expect(classifyError("Overloaded", "overloaded_error").retryable).toBe(true);
    expect(classifyError("quota", "RESOURCE_EXHAUSTED").retryable).toBe(true);
    expect(classifyError("bad tool schema", "invalid_request_error").retryable).toBe(false);
  });

  test("context overflow wins over retryable", () => {
    expect(classifyError("too long", "context_length_exceeded", 500)).toEqual({
      message: "too long",
      status: 500,
      retryable: false,
      contextOverflow: true,
    });
  });
});

describe("isContextOverflow", () => {
  test.each([
    "This model's maximum context length is 128000 tokens. However, your messages resulted in 130000 tokens.",
    "Your input exceeds the context window of this model.",
    "prompt is too long: 213462 tokens > 200000 maximum",
    "input length and `max_tokens` exceed context limit: 197000 + 16000 > 200000",
    "The input token count (1200000) exceeds the maximum number of tokens allowed (1048576).",
    "the request exceeds the available context size, try increasing it",
    "exceed_context_size_error",
  ])("%s", (text) => {
    expect(isContextOverflow(text)).toBe(true);
  });

  test("ordinary errors are not overflow", () => {
    expect(isContextOverflow("Invalid API key")).toBe(false);
    expect(isContextOverflow("max_tokens: must be less than 8192")).toBe(false);
  });
});

describe("errorBodyText", () => {
  test("reads each provider's error body", () => {
    expect(errorBodyText('{"error":{"message":"bad key","type":"invalid_request_error","code":"invalid_api_key"}}')).toEqual({
      message: "bad key",
      kind: "invalid_request_error invalid_api_key",
    });
    expect(errorBodyText('{"error":"model not found"}')).toEqual({ message: "model not found", kind: "" });
    expect(errorBodyText('[{"error":{"code":503,"message":"busy","status":"UNAVAILABLE"}}]')).toEqual({ message: "busy", kind: "UNAVAILABLE" });
    expect(errorBodyText("  <html>bad gateway</html> ")).toEqual({ message: "<html>bad gateway</html>", kind: "" });
  });

  test("cuts a huge body", () => {
    expect(errorBodyText("x".repeat(2000)).message).toHaveLength(501);
  });
});

describe("httpError", () => {
  test("combines status, body message and retry-after", async () => {
    const res = new Response('{"error":{"type":"overloaded_error","message":"Overloaded"}}', { status: 529, headers: { "retry-after": "3" } });
    expect(await httpError(res)).toEqual({ message: "HTTP 529: Overloaded", status: 529, retryable: true, retryAfterSeconds: 3 });
  });

  test("falls back to the status text for an empty body", async () => {
    const res = new Response("", { status: 503, statusText: "Service Unavailable" });
    expect((await httpError(res)).message).toBe("HTTP 503: Service Unavailable");
  });
});
