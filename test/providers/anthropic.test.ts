import { describe, expect, test } from "bun:test";
import { anthropic, buildAnthropicRequest, decodeAnthropic } from "../../src/providers/anthropic.ts";
import { fixtures } from "../support/fixtures/index.ts";
import { assemble } from "./helpers.ts";
import { describeProviderContract } from "./contract.ts";
import { BASH_TEXT, PIXEL, SHOT, SUMMARY_TEXT, assistant, bodyOf, collect, conversation, testModel, testRequest } from "./helpers.ts";

describeProviderContract({
  provider: anthropic,
  fixture: fixtures.anthropic,
  model: { api: "anthropic" },
  baseUrlPath: "/v1",
  requestPath: "/v1/messages",
  authHeader: ["x-api-key", "sk-test-key"],
  reportsCacheRead: true,
  midStreamError: {
    scripted: fixtures.anthropic.streamError("overloaded_error", "Overloaded"),
    expected: { message: "Overloaded", retryable: true },
  },
  overflow: fixtures.httpError(400, {
    type: "error",
    error: { type: "invalid_request_error", message: "prompt is too long: 213462 tokens > 200000 maximum" },
  }),
});

const sse = (type: string, data: object) => `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`;
const decode = async (body: Parameters<typeof bodyOf>[0]) => assemble(await collect(decodeAnthropic(bodyOf(body))));

describe("anthropic request", () => {
  const model = testModel({ api: "anthropic", baseUrl: "http://host/v1" });

  test("converts every message kind, merges tool results and marks the cache points", () => {
    const { url, headers, body } = buildAnthropicRequest(testRequest(model, { messages: conversation(model) }));
    expect(url).toBe("http://host/v1/messages");
    expect(headers).toEqual({ "anthropic-version": "2023-06-01", "x-api-key": "sk-test-key" });
    const b = body as Record<string, unknown>;
    expect(b.system).toEqual([{ type: "text", text: "You are a test.", cache_control: { type: "ephemeral" } }]);
    expect(b.messages).toEqual([
      { role: "user", content: [{ type: "text", text: SUMMARY_TEXT }] },
      {
        role: "user",
        content: [
          { type: "text", text: "look at this" },
          { type: "image", source: { type: "base64", media_type: "image/png", data: PIXEL } },
        ],
      },
      {
        role: "assistant",
        content: [
          { type: "thinking", thinking: "hmm", signature: "sig-1" },
          { type: "text", text: "I'll read it." },
          { type: "tool_use", id: "call_1_fc_1", name: "read", input: { path: "a.gif" } },
        ],
      },
      {
        role: "user",
        content: [
          {
            type: "tool_result",
            tool_use_id: "call_1_fc_1",
            content: [
              { type: "text", text: "Read image a.gif" },
              { type: "image", source: { type: "base64", media_type: "image/gif", data: SHOT } },
            ],
            is_error: false,
          },
        ],
      },
      { role: "user", content: [{ type: "text", text: BASH_TEXT }] },
      { role: "user", content: [{ type: "text", text: "thanks", cache_control: { type: "ephemeral" } }] },
    ]);
  });

  test("parallel tool results share one user turn", () => {
    const calls = assistant(model, [
      { type: "toolCall", id: "a", name: "read", arguments: {} },
      { type: "toolCall", id: "b", name: "read", arguments: {} },
    ]);
    const result = (id: string) => ({
      role: "toolResult" as const,
      toolCallId: id,
      toolName: "read",
      content: [{ type: "text" as const, text: id }],
      isError: id === "b",
      timestamp: 3,
    });
    const { body } = buildAnthropicRequest(testRequest(model, { messages: [{ role: "user", content: "go", timestamp: 1 }, calls, result("a"), result("b")] }));
    const last = (body as { messages: { role: string; content: { tool_use_id: string; is_error: boolean }[] }[] }).messages.at(-1);
    expect(last?.content.map((c) => [c.tool_use_id, c.is_error])).toEqual([
      ["a", false],
      ["b", true],
    ]);
  });

  test("thinking from another model is not replayed; redacted thinking is", () => {
    const other = {
      ...assistant(
        model,
        [
          { type: "thinking", thinking: "x", thinkingSignature: "s" },
          { type: "text", text: "hi" },
        ],
        "stop",
      ),
      model: "other",
    };
    const redacted = assistant(
      model,
      [
        { type: "thinking", thinking: "", thinkingSignature: "opaque", redacted: true },
        { type: "text", text: "yo" },
      ],
      "stop",
    );
    const { body } = buildAnthropicRequest(testRequest(model, { messages: [{ role: "user", content: "a", timestamp: 1 }, other, redacted] }));
    const turns = (body as { messages: { content: unknown[] }[] }).messages;
    expect(turns[1]!.content).toEqual([{ type: "text", text: "hi" }]);
    expect(turns[2]!.content).toEqual([
      { type: "redacted_thinking", data: "opaque" },
      { type: "text", text: "yo" },
    ]);
  });

  test("thinking budget follows the level and stays below max_tokens", () => {
    const reasoning = testModel({ api: "anthropic", reasoning: true, maxTokens: 16000 });
    const high = buildAnthropicRequest(testRequest(reasoning, { thinkingLevel: "high" }));
    expect(high.body).toMatchObject({ max_tokens: 16000, thinking: { type: "enabled", budget_tokens: 14976 } });
    expect(high.headers["anthropic-beta"]).toBe("interleaved-thinking-2025-05-14");
    const low = buildAnthropicRequest(testRequest(reasoning, { thinkingLevel: "low" }));
    expect(low.body).toMatchObject({ thinking: { type: "enabled", budget_tokens: 4096 } });
    const off = buildAnthropicRequest(testRequest(reasoning, { thinkingLevel: "off" }));
    expect((off.body as Record<string, unknown>).thinking).toBeUndefined();
    const notReasoning = buildAnthropicRequest(testRequest(model, { thinkingLevel: "max" }));
    expect((notReasoning.body as Record<string, unknown>).thinking).toBeUndefined();
  });
});

describe("anthropic stream", () => {
  test("keeps thinking signatures and redacted thinking for the round trip", async () => {
    const result = await decode(fixtures.anthropic.turn([{ thinking: "plan", signature: "sig-9" }, { text: "done" }]));
    expect(result.blocks).toEqual([
      { type: "thinking", thinking: "plan", thinkingSignature: "sig-9" },
      { type: "text", text: "done" },
    ]);
    const redacted = await decode(
      sse("content_block_start", { index: 0, content_block: { type: "redacted_thinking", data: "EmwKAhgB" } }) +
        sse("content_block_stop", { index: 0 }) +
        sse("message_delta", { delta: { stop_reason: "end_turn" }, usage: { output_tokens: 3 } }) +
        sse("message_stop", {}),
    );
    expect(redacted.blocks).toEqual([{ type: "thinking", thinking: "", thinkingSignature: "EmwKAhgB", redacted: true }]);
  });

  test("ignores unknown events and reports cumulative usage", async () => {
    const result = await decode(
      sse("message_start", { message: { usage: { input_tokens: 9, cache_creation_input_tokens: 4, cache_read_input_tokens: 2, output_tokens: 1 } } }) +
        sse("something_new", { index: 0 }) +
        sse("message_delta", { delta: { stop_reason: "stop_sequence" }, usage: { output_tokens: 12 } }) +
        sse("message_stop", {}),
    );
    expect(result.usage).toMatchObject({ input: 9, output: 12, cacheRead: 2, cacheWrite: 4 });
    expect(result.stop).toBe("stop");
  });

  test("a refusal is an error", async () => {
    const body = sse("message_delta", { delta: { stop_reason: "refusal" }, usage: { output_tokens: 1 } }) + sse("message_stop", {});
    await expect(decode(body)).rejects.toThrow("refusal");
  });
});

describe("anthropic tool without parameters", () => {
  test("a tool_use block with no input deltas gets empty arguments", async () => {
    const events = await collect(
      decodeAnthropic(
        bodyOf(
          sse("content_block_start", { index: 0, content_block: { type: "tool_use", id: "toolu_1", name: "now", input: {} } }) +
            sse("content_block_delta", { index: 0, delta: { type: "input_json_delta", partial_json: "" } }) +
            sse("content_block_stop", { index: 0 }) +
            sse("message_delta", { delta: { stop_reason: "tool_use" }, usage: { output_tokens: 3 } }) +
            sse("message_stop", {}),
        ),
      ),
    );
    expect(events.slice(0, 2)).toEqual([
      { type: "toolcall_start", index: 0, id: "toolu_1", name: "now" },
      { type: "toolcall_args", index: 0, arguments: {} },
    ]);
  });
});
