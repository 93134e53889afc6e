import { describe, expect, test } from "bun:test";
import { bearerHeaders, joinUrl, withIdleTimeout } from "../../src/providers/http.ts";
import { encode } from "./helpers.ts";

describe("joinUrl", () => {
  test("joins with exactly one slash", () => {
    expect(joinUrl("http://h/v1/", "/chat/completions")).toBe("http://h/v1/chat/completions");
    expect(joinUrl("http://h/v1", "responses")).toBe("http://h/v1/responses");
  });
});

describe("bearerHeaders", () => {
  test("adds the key as a bearer token next to the configured headers", () => {
    expect(bearerHeaders({ apiKey: "k", headers: { "x-extra": "1" } })).toEqual({ authorization: "Bearer k", "x-extra": "1" });
    expect(bearerHeaders({})).toEqual({});
  });
});

describe("withIdleTimeout", () => {
  test("passes chunks through while they keep coming", async () => {
    const source = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(encode("a"));
        controller.enqueue(encode("b"));
        controller.close();
      },
    });
    expect(await new Response(withIdleTimeout(source, 100, "http://x")).text()).toBe("ab");
  });

  test("errors and cancels the source when nothing arrives in time", async () => {
    let cancelled = false;
    const source = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(encode("a"));
      },
      cancel() {
        cancelled = true;
      },
    });
    const reader = withIdleTimeout(source, 50, "http://x").getReader();
    expect((await reader.read()).value).toEqual(encode("a"));
    await expect(reader.read()).rejects.toMatchObject({ error: { message: "stream stalled: no data for 0.05 s", retryable: true } });
    expect(cancelled).toBe(true);
  });
});
