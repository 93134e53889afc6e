import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { runProvider } from "../../src/providers/run.ts";
import type { ProviderEvent } from "../../src/providers/types.ts";
import { type ProviderServer, startProviderServer } from "../support/provider-server.ts";
import { collect } from "./helpers.ts";

const never = new AbortController().signal;

describe("runProvider", () => {
  let server: ProviderServer;
  beforeAll(async () => {
    server = await startProviderServer();
  });
  afterAll(() => server.close());

  const request = () => ({ url: `${server.url}/x`, headers: { authorization: "Bearer k" }, body: { hello: "wörld" } });

  test("posts JSON with the headers and stops after the first stop event", async () => {
    server.enqueue({ chunks: ["ab"] });
    const decode = async function* (): AsyncGenerator<ProviderEvent> {
      yield { type: "text_delta", index: 0, delta: "a" };
      yield { type: "stop", reason: "stop" };
      yield { type: "text_delta", index: 0, delta: "never seen" };
    };
    const events = await collect(runProvider(request, decode, { idleTimeoutMs: 1000 }, never));
    expect(events).toEqual([
      { type: "text_delta", index: 0, delta: "a" },
      { type: "stop", reason: "stop" },
    ]);
    const sent = server.requests.at(-1);
    expect(sent?.method).toBe("POST");
    expect(sent?.headers["content-type"]).toBe("application/json");
    expect(sent?.headers.authorization).toBe("Bearer k");
    expect(sent?.body).toEqual({ hello: "wörld" });
  });

  test("a body that ends without a stop is a retryable error", async () => {
    server.enqueue({ chunks: ["x"] });
    const events = await collect(runProvider(request, async function* () {}, { idleTimeoutMs: 1000 }, never));
    expect(events).toEqual([{ type: "error", error: { message: "the response ended before the provider finished it", retryable: true } }]);
  });

  test("malformed bytes are a non-retryable error naming the problem", async () => {
    server.enqueue({ chunks: ["{oops"] });
    // biome-ignore lint/correctness/useYield: this decoder fails before it could yield
    const decode = async function* (body: ReadableStream<Uint8Array>): AsyncGenerator<ProviderEvent> {
      JSON.parse(await new Response(body).text());
    };
    const [event] = await collect(runProvider(request, decode, { idleTimeoutMs: 1000 }, never));
    expect(event).toMatchObject({ type: "error", error: { retryable: false } });
    expect(event!.type === "error" && event.error.message).toStartWith("malformed response from the provider: ");
  });

  test("a body of an unexpected shape is a non-retryable error, not a network error", async () => {
    server.enqueue({ chunks: ["data: null\n\n"] });
    const decode = async function* (body: ReadableStream<Uint8Array>): AsyncGenerator<ProviderEvent> {
      const value = JSON.parse((await new Response(body).text()).slice(6)) as { choices: unknown[] };
      if (value.choices.length > 0) yield { type: "stop", reason: "stop" };
    };
    const [event] = await collect(runProvider(request, decode, { idleTimeoutMs: 1000 }, never));
    expect(event).toMatchObject({ type: "error", error: { retryable: false } });
    expect(event!.type === "error" && event.error.message).toStartWith("malformed response from the provider: ");
  });

  test("a request that cannot be built is not retryable", async () => {
    const build = () => {
      throw new Error("thinking signature is not JSON");
    };
    expect(await collect(runProvider(build, async function* () {}, { idleTimeoutMs: 1000 }, never))).toEqual([
      { type: "error", error: { message: "could not build the request: thinking signature is not JSON", retryable: false } },
    ]);
  });

  test("a refused connection names the URL and is not retried", async () => {
    const closed = await startProviderServer();
    await closed.close();
    const url = `${closed.url}/v1/chat/completions`;
    const [event] = await collect(
      runProvider(
        () => ({ url, headers: {}, body: {} }),
        async function* () {},
        { idleTimeoutMs: 1000 },
        never,
      ),
    );
    expect(event).toEqual({ type: "error", error: { message: `cannot connect to ${url}: connection refused`, retryable: false } });
  });

  test("an unknown host names the host and is not retried", async () => {
    const url = "http://no-such-host.invalid/v1/messages";
    const [event] = await collect(
      runProvider(
        () => ({ url, headers: {}, body: {} }),
        async function* () {},
        { idleTimeoutMs: 5000 },
        never,
      ),
    );
    expect(event).toEqual({ type: "error", error: { message: `cannot connect to ${url}: unknown host no-such-host.invalid`, retryable: false } });
  });

  test("a connection reset before the answer is retried and names the URL", async () => {
    const { createServer } = await import("node:net");
    const server = createServer((socket) => socket.on("data", () => socket.resetAndDestroy())).listen(0, "127.0.0.1");
    await new Promise((resolve) => server.once("listening", resolve));
    const url = `http://127.0.0.1:${(server.address() as { port: number }).port}/v1/responses`;
    const [event] = await collect(
      runProvider(
        () => ({ url, headers: {}, body: {} }),
        async function* () {},
        { idleTimeoutMs: 5000 },
        never,
      ),
    );
    server.close();
    expect(event).toEqual({ type: "error", error: { message: `connection to ${url} was reset`, retryable: true } });
  });

  test("a server that never sends headers times out as a stall", async () => {
    const silent = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => new Promise<Response>(() => {}) });
    const events = await collect(
      runProvider(
        () => ({ url: `http://127.0.0.1:${silent.port}`, headers: {}, body: {} }),
        async function* () {},
        { idleTimeoutMs: 150 },
        never,
      ),
    );
    await silent.stop(true);
    expect(events).toEqual([{ type: "error", error: { message: "stream stalled: no data for 0.15 s", retryable: true } }]);
  });
});
