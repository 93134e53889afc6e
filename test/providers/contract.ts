/**
 * The behaviour every provider owes the agent loop, run against the scripted
 * server with each provider's real wire bytes. Each provider's test file calls
 * `describeProviderContract` and adds its own request-shape tests.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { ImageContent } from "../../src/core/messages.ts";
import type { Model, Provider, ProviderError, ProviderEvent, ProviderRequest } from "../../src/providers/types.ts";
import { fixtures } from "../support/fixtures/index.ts";
import type { FixturePart, FixtureToolCall, TurnOptions } from "../support/fixtures/index.ts";
import { type ProviderServer, type Scripted, startProviderServer } from "../support/provider-server.ts";
import { assemble } from "./helpers.ts";
import { collect, testModel, testRequest } from "./helpers.ts";

export interface FixtureModule {
  turn(parts: FixturePart[], options?: TurnOptions): Scripted;
  text(content: string, options?: TurnOptions): Scripted;
  toolCalls(calls: FixtureToolCall[], options?: TurnOptions): Scripted;
  thinking(thought: string, answer: string, options?: TurnOptions): Scripted;
}

export interface ContractTarget {
  provider: Provider;
  fixture: FixtureModule;
  model: Partial<Model>;
  /** appended to the server url to form the model's baseUrl */
  baseUrlPath: string;
  /** the request path the provider must POST to */
  requestPath: string;
  /** the header that carries `sk-test-key` and its expected value */
  authHeader: [string, string];
  /** whether the usage fixture's cacheRead survives the wire format */
  reportsCacheRead: boolean;
  /** a real context-overflow error response of this provider */
  overflow: Scripted;
  /** an error the provider sends inside a 200 stream, and the error it must become */
  midStreamError?: { scripted: Scripted; expected: ProviderError };
}

/** A 1x1 PNG. */
export const PNG: ImageContent = {
  type: "image",
  mimeType: "image/png",
  data: "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=",
};

/** A conversation with an image in the user turn and in a tool result. */
export function imageConversation(): ProviderRequest["messages"] {
  return [
    { role: "user", content: [{ type: "text", text: "what is this?" }, PNG], timestamp: 1 },
    {
      role: "assistant",
      content: [{ type: "toolCall", id: "call_img", name: "view_image", arguments: { path: "a.png" } }],
      api: "other",
      provider: "other",
      model: "other",
      usage: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, totalTokens: 0, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } },
      stopReason: "toolUse",
      timestamp: 2,
    },
    {
      role: "toolResult",
      toolCallId: "call_img",
      toolName: "view_image",
      content: [
        { type: "text", text: "Read image a.png" },
        { ...PNG, data: `${PNG.data.slice(0, -4)}AAA=` },
      ],
      isError: false,
      timestamp: 3,
    },
  ];
}

export function describeProviderContract(target: ContractTarget) {
  describe(`${target.provider.api} provider contract`, () => {
    let server: ProviderServer;
    let model: Model;
    const request = (overrides: Partial<ProviderRequest> = {}) => testRequest(model, overrides);
    const stream = async (overrides: Partial<ProviderRequest> = {}) => collect(target.provider.stream(request(overrides), new AbortController().signal));

    beforeAll(async () => {
      server = await startProviderServer();
      model = testModel({ ...target.model, baseUrl: server.url + target.baseUrlPath });
    });
    afterAll(() => server.close());

    test("plain text split at awkward byte boundaries, posted to the right path with auth", async () => {
      const text = "Hello, wörld! 中文 🎉 done.";
      server.enqueue(target.fixture.text(text, { chunkSize: 7 }));
      const result = assemble(await stream());
      expect(result.error).toBeUndefined();
      expect(result.blocks).toMatchObject([{ type: "text", text }]);
      expect(result.stop).toBe("stop");
      const sent = server.requests.at(-1);
      expect(sent?.path).toBe(target.requestPath);
      expect(sent?.headers[target.authHeader[0]]).toBe(target.authHeader[1]);
    });

    test("one tool call with fragmented arguments", async () => {
      const args = { path: "src/äpp.ts", offset: 10, flags: ["a", "b"] };
      server.enqueue(target.fixture.toolCalls([{ id: "call_one", name: "read", args }], { fragment: 3, chunkSize: 7 }));
      const result = assemble(await stream());
      expect(result.blocks).toHaveLength(1);
      expect(result.blocks[0]).toMatchObject({ type: "toolCall", name: "read", arguments: args });
      expect(result.stop).toBe("toolUse");
    });

    test("two parallel tool calls keep their own arguments and distinct ids", async () => {
      server.enqueue(
        target.fixture.toolCalls([
          { name: "read", args: { path: "a.ts" } },
          { name: "bash", args: { command: "ls -la" } },
        ]),
      );
      const result = assemble(await stream());
      expect(result.blocks.map((b) => b.type === "toolCall" && [b.name, b.arguments])).toEqual([
        ["read", { path: "a.ts" }],
        ["bash", { command: "ls -la" }],
      ]);
      const ids = result.blocks.map((b) => (b.type === "toolCall" ? b.id : ""));
      expect(new Set(ids).size).toBe(2);
      expect(ids.every((id) => id.length > 0)).toBe(true);
      expect(result.stop).toBe("toolUse");
    });

    test("thinking then text", async () => {
      server.enqueue(target.fixture.thinking("Let me think… 🤔 step by step", "The answer is 4.", { chunkSize: 13 }));
      const result = assemble(await stream({ model: { ...model, reasoning: true }, thinkingLevel: "high" }));
      expect(result.blocks.map((b) => (b.type === "thinking" ? ["thinking", b.thinking] : b.type === "text" ? ["text", b.text] : []))).toEqual([
        ["thinking", "Let me think… 🤔 step by step"],
        ["text", "The answer is 4."],
      ]);
      expect(result.stop).toBe("stop");
    });

    test("interleaved thinking, text and a tool call keep their order as separate blocks", async () => {
      server.enqueue(
        target.fixture.turn([{ thinking: "first thought" }, { text: "let me check" }, { thinking: "second thought" }, { toolCall: { name: "ls", args: { dir: "." } } }], {
          chunkSize: 29,
        }),
      );
      const result = assemble(await stream({ model: { ...model, reasoning: true }, thinkingLevel: "medium" }));
      expect(result.blocks).toMatchObject([
        { type: "thinking", thinking: "first thought" },
        { type: "text", text: "let me check" },
        { type: "thinking", thinking: "second thought" },
        { type: "toolCall", name: "ls", arguments: { dir: "." } },
      ]);
      expect(result.stop).toBe("toolUse");
    });

    test("usage is reported", async () => {
      server.enqueue(target.fixture.text("ok", { usage: { input: 120, output: 33, cacheRead: target.reportsCacheRead ? 40 : 0 } }));
      const result = assemble(await stream());
      expect(result.usage).toMatchObject({ input: 120, output: 33, ...(target.reportsCacheRead ? { cacheRead: 40 } : {}) });
    });

    test("a length stop is reported as length", async () => {
      server.enqueue(target.fixture.text("cut", { stop: "length" }));
      expect(assemble(await stream()).stop).toBe("length");
    });

    test("images in the user message and in a tool result reach the request body", async () => {
      server.enqueue(target.fixture.text("a pixel"));
      await stream({ messages: imageConversation() });
      const body = JSON.stringify(server.requests.at(-1)?.body);
      expect(body).toContain(PNG.data);
      expect(body).toContain(`${PNG.data.slice(0, -4)}AAA=`);
    });

    test("429 with retry-after is a retryable error carrying the delay", async () => {
      server.enqueue(fixtures.httpError(429, { error: { type: "rate_limit_error", message: "Rate limit reached" } }, { "retry-after": "7" }));
      const events = await stream();
      expect(events).toHaveLength(1);
      expect(events[0]).toEqual({
        type: "error",
        error: { message: "HTTP 429: Rate limit reached", status: 429, retryable: true, retryAfterSeconds: 7 },
      });
    });

    test("500 is a retryable error", async () => {
      server.enqueue(fixtures.httpError(500, "upstream exploded"));
      const result = assemble(await stream());
      expect(result.error).toMatchObject({ status: 500, retryable: true, message: "HTTP 500: upstream exploded" });
    });

    test("400 context overflow is flagged and not retryable", async () => {
      server.enqueue(target.overflow);
      const result = assemble(await stream());
      expect(result.error).toMatchObject({ status: 400, retryable: false, contextOverflow: true });
    });

    if (target.midStreamError) {
      const { scripted, expected } = target.midStreamError;
      test("an error sent inside the stream is the final event", async () => {
        server.enqueue(scripted);
        const events = await stream();
        expect(events.at(-1)).toEqual({ type: "error", error: expected });
        expect(events.filter((e) => e.type === "error" || e.type === "stop")).toHaveLength(1);
      });
    }

    test("a connection dropped mid-stream yields the partial text, then a retryable error", async () => {
      const text = "abcdefghijklmnopqrstuvwxyz0123456789";
      const full = target.fixture.text(text, { fragment: 2 });
      server.enqueue(target.fixture.text(text, { fragment: 2, keep: full.chunks.length - 4, end: "drop" }));
      const events = await stream();
      const last = events.at(-1) as Extract<ProviderEvent, { type: "error" }>;
      expect(last.type).toBe("error");
      expect(last.error.retryable).toBe(true);
      const partial = assemble(events.slice(0, -1)).blocks[0];
      expect(partial?.type === "text" && text.startsWith(partial.text) && partial.text.length > 0).toBe(true);
      expect(events.some((e) => e.type === "stop")).toBe(false);
    });

    test("a stalled stream ends with a retryable idle-timeout error", async () => {
      const full = target.fixture.text("never finishes", { fragment: 2 });
      server.enqueue(target.fixture.text("never finishes", { fragment: 2, keep: full.chunks.length - 4, end: "stall" }));
      const result = assemble(await stream({ idleTimeoutMs: 200 }));
      expect(result.error).toEqual({ message: "stream stalled: no data for 0.2 s", retryable: true });
    });

    test("abort ends the iterator promptly, mid-stream", async () => {
      const full = target.fixture.text("aborted answer", { fragment: 2 });
      server.enqueue(target.fixture.text("aborted answer", { fragment: 2, keep: full.chunks.length - 4, end: "stall" }));
      const controller = new AbortController();
      const events: ProviderEvent[] = [];
      let abortedAt = 0;
      for await (const item of target.provider.stream(request({ idleTimeoutMs: 30_000 }), controller.signal)) {
        for (const event of Array.isArray(item) ? item : [item]) {
          events.push(event);
          if (event.type === "text_delta" && abortedAt === 0) {
            abortedAt = performance.now();
            controller.abort();
          }
        }
      }
      expect(performance.now() - abortedAt).toBeLessThan(1000);
      expect(events.at(-1)).toEqual({ type: "error", error: { message: "Request was aborted", retryable: false } });
    });

    test("a signal aborted before the call sends nothing", async () => {
      const before = server.requests.length;
      const controller = new AbortController();
      controller.abort();
      const events = await collect(target.provider.stream(request(), controller.signal));
      expect(events).toEqual([{ type: "error", error: { message: "Request was aborted", retryable: false } }]);
      expect(server.requests.length).toBe(before);
    });
  });
}
