import { describe, expect, test } from "bun:test";
import { buildResponsesRequest, decodeResponses, openaiResponses } from "../../src/providers/openai-responses.ts";
import { fixtures } from "../support/fixtures/index.ts";
import { assemble } from "./helpers.ts";
import { describeProviderContract } from "./contract.ts";
import { BASH_TEXT, PIXEL, SHOT, SUMMARY_TEXT, bodyOf, collect, conversation, testModel, testRequest } from "./helpers.ts";

describeProviderContract({
  provider: openaiResponses,
  fixture: fixtures.openaiResponses,
  model: { api: "openai-responses" },
  baseUrlPath: "/v1",
  requestPath: "/v1/responses",
  authHeader: ["authorization", "Bearer sk-test-key"],
  reportsCacheRead: true,
  midStreamError: {
    scripted: fixtures.openaiResponses.streamError("The server had an error while processing your request.", "server_error"),
    expected: { message: "The server had an error while processing your request.", retryable: true },
  },
  overflow: fixtures.httpError(400, {
    error: {
      message: "Your input exceeds the context window of this model. Please adjust your input and try again.",
      type: "invalid_request_error",
      code: "context_length_exceeded",
    },
  }),
});

const sse = (type: string, data: object) => `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`;
const decode = async (body: Parameters<typeof bodyOf>[0]) => assemble(await collect(decodeResponses(bodyOf(body))));

describe("openai-responses request", () => {
  const model = testModel({ api: "openai-responses", baseUrl: "http://host/v1", reasoning: true });

  test("converts every message kind to input items, replaying this model's reasoning and item ids", () => {
    const reasoningItem = { type: "reasoning", id: "rs_1", summary: [], encrypted_content: "enc" };
    const messages = conversation(model);
    const turn = messages[2];
    if (turn!.role === "assistant" && turn!.content[0]!.type === "thinking") turn!.content[0]!.thinkingSignature = JSON.stringify(reasoningItem);
    const { url, body } = buildResponsesRequest(testRequest(model, { messages, thinkingLevel: "medium" }));
    expect(url).toBe("http://host/v1/responses");
    const b = body as Record<string, unknown>;
    expect(b).toMatchObject({
      instructions: "You are a test.",
      stream: true,
      store: false,
      reasoning: { effort: "medium", summary: "auto" },
      include: ["reasoning.encrypted_content"],
    });
    expect(b.input).toEqual([
      { role: "user", content: [{ type: "input_text", text: SUMMARY_TEXT }] },
      {
        role: "user",
        content: [
          { type: "input_text", text: "look at this" },
          { type: "input_image", image_url: `data:image/png;base64,${PIXEL}`, detail: "auto" },
        ],
      },
      reasoningItem,
      { type: "message", role: "assistant", status: "completed", content: [{ type: "output_text", text: "I'll read it.", annotations: [] }], id: "msg_1" },
      { type: "function_call", call_id: "call_1", name: "read", arguments: '{"path":"a.gif"}', id: "fc_1" },
      { type: "function_call_output", call_id: "call_1", output: "Read image a.gif" },
      {
        role: "user",
        content: [
          { type: "input_text", text: "Attached image(s) from tool result:" },
          { type: "input_image", image_url: `data:image/gif;base64,${SHOT}`, detail: "auto" },
        ],
      },
      { role: "user", content: [{ type: "input_text", text: BASH_TEXT }] },
      { role: "user", content: [{ type: "input_text", text: "thanks" }] },
    ]);
  });

  test("another model's turn is sent without reasoning items or item ids", () => {
    const other = testModel({ api: "openai-responses", id: "other-model" });
    const { body } = buildResponsesRequest(testRequest(model, { messages: conversation(other).slice(1, 4) }));
    const input = (body as { input: Record<string, unknown>[] }).input;
    expect(input.map((i) => i.type ?? i.role)).toEqual(["user", "message", "function_call", "function_call_output", "user"]);
    expect(input.some((i) => "id" in i)).toBe(false);
  });
});

describe("openai-responses stream", () => {
  test("keeps reasoning items, message ids and call ids for the round trip", async () => {
    const result = await decode(fixtures.openaiResponses.turn([{ thinking: "plan", signature: "enc-1" }, { text: "hi" }, { toolCall: { id: "call_7", name: "ls", args: {} } }]));
    expect(result.blocks).toEqual([
      {
        type: "thinking",
        thinking: "plan",
        thinkingSignature: JSON.stringify({ id: "rs_0", type: "reasoning", summary: [{ type: "summary_text", text: "plan" }], encrypted_content: "enc-1" }),
      },
      { type: "text", text: "hi", textSignature: "msg_1" },
      { type: "toolCall", id: "call_7|fc_2", name: "ls", arguments: {} },
    ]);
    expect(result.stop).toBe("toolUse");
  });

  test("arguments sent only in output_item.done still arrive", async () => {
    const item = { type: "function_call", id: "fc_1", call_id: "call_1", name: "read", arguments: "" };
    const result = await decode(
      sse("response.output_item.added", { output_index: 0, item }) +
        sse("response.output_item.done", { output_index: 0, item: { ...item, arguments: '{"path":"x"}' } }) +
        sse("response.completed", { response: { status: "completed" } }),
    );
    expect(result.blocks).toEqual([{ type: "toolCall", id: "call_1|fc_1", name: "read", arguments: { path: "x" } }]);
  });

  test("a call with no arguments at all gets empty arguments", async () => {
    const item = { type: "function_call", id: "fc_1", call_id: "call_1", name: "now", arguments: "" };
    const events = await collect(
      decodeResponses(
        bodyOf(
          sse("response.output_item.added", { output_index: 0, item }) +
            sse("response.function_call_arguments.delta", { output_index: 0, delta: "" }) +
            sse("response.output_item.done", { output_index: 0, item }) +
            sse("response.completed", { response: { status: "completed" } }),
        ),
      ),
    );
    expect(events).toEqual([
      { type: "toolcall_start", index: 0, id: "call_1|fc_1", name: "now" },
      { type: "toolcall_args", index: 0, arguments: {} },
      { type: "stop", reason: "toolUse" },
    ]);
  });

  test("response.failed is an error classified like any other", async () => {
    const body = sse("response.failed", { response: { status: "failed", error: { code: "rate_limit_exceeded", message: "Slow down" } } });
    await expect(decode(body)).rejects.toMatchObject({ error: { message: "Slow down", retryable: true } });
  });
});

describe("openai-responses reasoning text and error events", () => {
  test("reasoning_text deltas are thinking; a .done without deltas brings the whole text", async () => {
    const streamed = await decode(
      sse("response.output_item.added", { output_index: 0, item: { type: "reasoning", id: "rs_1" } }) +
        sse("response.reasoning_text.delta", { output_index: 0, delta: "Let me " }) +
        sse("response.reasoning_text.delta", { output_index: 0, delta: "think." }) +
        sse("response.reasoning_text.done", { output_index: 0, text: "Let me think." }) +
        sse("response.completed", { response: { status: "completed" } }),
    );
    expect(streamed.blocks[0]).toMatchObject({ type: "thinking", thinking: "Let me think." });
    const whole = await decode(
      sse("response.output_item.added", { output_index: 0, item: { type: "reasoning", id: "rs_1" } }) +
        sse("response.reasoning_text.done", { output_index: 0, text: "All at once." }) +
        sse("response.completed", { response: { status: "completed" } }),
    );
    expect(whole.blocks[0]).toMatchObject({ type: "thinking", thinking: "All at once." });
  });

  test("an error event ends with the provider's own message, in both shapes", async () => {
    const nested = sse("error", {
      type: "error",
      sequence_number: 2,
      error: { type: "insufficient_quota", code: "insufficient_quota", message: "You exceeded your current quota.", param: null },
    });
    await expect(decode(nested)).rejects.toMatchObject({ error: { message: "You exceeded your current quota.", retryable: false } });
    const flat = sse("error", { type: "error", code: "server_error", message: "The server had an error." });
    await expect(decode(flat)).rejects.toMatchObject({ error: { message: "The server had an error.", retryable: true } });
  });

  test("response.incomplete for max_output_tokens is a length stop; for content_filter an error naming it", async () => {
    const incomplete = (reason: string) => sse("response.incomplete", { response: { status: "incomplete", incomplete_details: { reason } } });
    expect((await decode(incomplete("max_output_tokens"))).stop).toBe("length");
    await expect(decode(incomplete("content_filter"))).rejects.toMatchObject({ error: { message: "the provider stopped the response: content_filter" } });
  });
});
