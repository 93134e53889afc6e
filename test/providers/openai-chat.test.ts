import { describe, expect, test } from "bun:test";
import { buildChatRequest, decodeChat, openaiChat } from "../../src/providers/openai-chat.ts";
import { fixtures } from "../support/fixtures/index.ts";
import { assemble } from "./helpers.ts";
import { describeProviderContract } from "./contract.ts";
import { BASH_TEXT, PIXEL, SHOT, SUMMARY_TEXT, bodyOf, collect, conversation, testModel, testRequest } from "./helpers.ts";

describeProviderContract({
  provider: openaiChat,
  fixture: fixtures.openaiChat,
  model: { api: "openai-chat" },
  baseUrlPath: "/v1",
  requestPath: "/v1/chat/completions",
  authHeader: ["authorization", "Bearer sk-test-key"],
  reportsCacheRead: true,
  midStreamError: {
    scripted: fixtures.openaiChat.streamError("Provider returned error: overloaded", "502"),
    expected: { message: "Provider returned error: overloaded", retryable: true },
  },
  overflow: fixtures.httpError(400, {
    error: {
      message: "This model's maximum context length is 128000 tokens. However, your messages resulted in 130000 tokens.",
      type: "invalid_request_error",
      code: "context_length_exceeded",
    },
  }),
});

const decode = async (body: Parameters<typeof bodyOf>[0]) => assemble(await collect(decodeChat(bodyOf(body))));

describe("openai-chat request", () => {
  const model = testModel({ api: "openai-chat", baseUrl: "http://host/v1/" });

  test("converts every message kind to Chat Completions messages", () => {
    const { url, body } = buildChatRequest(testRequest(model, { messages: conversation(model) }));
    expect(url).toBe("http://host/v1/chat/completions");
    expect((body as { messages: unknown }).messages).toEqual([
      { role: "system", content: "You are a test." },
      { role: "user", content: SUMMARY_TEXT },
      {
        role: "user",
        content: [
          { type: "text", text: "look at this" },
          { type: "image_url", image_url: { url: `data:image/png;base64,${PIXEL}` } },
        ],
      },
      {
        role: "assistant",
        content: "I'll read it.",
        tool_calls: [{ id: "call_1", type: "function", function: { name: "read", arguments: '{"path":"a.gif"}' } }],
      },
      { role: "tool", tool_call_id: "call_1", content: "Read image a.gif" },
      {
        role: "user",
        content: [
          { type: "text", text: "Attached image(s) from tool result:" },
          { type: "image_url", image_url: { url: `data:image/gif;base64,${SHOT}` } },
        ],
      },
      { role: "user", content: BASH_TEXT },
      { role: "user", content: "thanks" },
    ]);
  });

  test("streams with usage, sends tools as functions, and effort only for reasoning models", () => {
    const tools = [{ name: "read", description: "Read a file", parameters: { type: "object", properties: {} } }];
    const plain = buildChatRequest(testRequest(model, { tools, thinkingLevel: "high" })).body as Record<string, unknown>;
    expect(plain).toMatchObject({
      model: "test-model",
      stream: true,
      stream_options: { include_usage: true },
      tools: [{ type: "function", function: tools[0] }],
    });
    expect(plain.reasoning_effort).toBeUndefined();
    const reasoning = testModel({ api: "openai-chat", reasoning: true });
    expect(buildChatRequest(testRequest(reasoning, { thinkingLevel: "xhigh" })).body).toMatchObject({ reasoning_effort: "high" });
    expect((buildChatRequest(testRequest(reasoning, { thinkingLevel: "off" })).body as Record<string, unknown>).reasoning_effort).toBeUndefined();
  });
});

describe("openai-chat stream", () => {
  test("reads `delta.reasoning` as thinking and ends at [DONE]", async () => {
    const chunk = (delta: object, finish: string | null = null) => `data: ${JSON.stringify({ choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
    const result = await decode(chunk({ reasoning: "think" }) + chunk({ content: "say" }) + chunk({}, "stop") + "data: [DONE]\n\n");
    expect(result.blocks).toEqual([
      { type: "thinking", thinking: "think", thinkingSignature: "reasoning" },
      { type: "text", text: "say" },
    ]);
    expect(result.stop).toBe("stop");
  });

  test("content_filter is an error, not a normal stop", async () => {
    const chunk = `data: ${JSON.stringify({ choices: [{ index: 0, delta: {}, finish_reason: "content_filter" }] })}\n\ndata: [DONE]\n\n`;
    await expect(decode(chunk)).rejects.toThrow("content_filter");
  });
});

describe("openai-chat tool without parameters", () => {
  test("a call whose arguments never arrive gets empty arguments before the stop", async () => {
    const chunk = (delta: object, finish: string | null = null) => `data: ${JSON.stringify({ choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
    const events = await collect(
      decodeChat(
        bodyOf(chunk({ tool_calls: [{ index: 0, id: "call_n", type: "function", function: { name: "now", arguments: "" } }] }) + chunk({}, "tool_calls") + "data: [DONE]\n\n"),
      ),
    );
    expect(events).toEqual([
      { type: "toolcall_start", index: 0, id: "call_n", name: "now" },
      { type: "toolcall_args", index: 0, arguments: {} },
      { type: "stop", reason: "toolUse" },
    ]);
  });
});

describe("openai-chat reasoning sent back", () => {
  const turn = (model: string) => [
    { role: "user" as const, content: "weather?", timestamp: 1 },
    {
      role: "assistant" as const,
      content: [
        { type: "thinking" as const, thinking: "need the tool", thinkingSignature: "reasoning_content" },
        { type: "toolCall" as const, id: "call_1", name: "weather", arguments: { city: "Rome" } },
      ],
      api: "openai-chat",
      provider: "test",
      model,
      usage: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, totalTokens: 0, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } },
      stopReason: "toolUse" as const,
      timestamp: 2,
    },
    { role: "toolResult" as const, toolCallId: "call_1", toolName: "weather", content: [{ type: "text" as const, text: "sunny" }], isError: false, timestamp: 3 },
    {
      role: "assistant" as const,
      content: [
        { type: "thinking" as const, thinking: "done", thinkingSignature: "reasoning_content" },
        { type: "text" as const, text: "Sunny." },
      ],
      api: "openai-chat",
      provider: "test",
      model,
      usage: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, totalTokens: 0, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } },
      stopReason: "stop" as const,
      timestamp: 4,
    },
  ];
  const assistants = (model: Parameters<typeof testModel>[0], from = model?.id ?? "test-model") =>
    (buildChatRequest(testRequest(testModel(model), { messages: turn(from) })).body as { messages: Record<string, unknown>[] }).messages.filter((m) => m.role === "assistant");

  test("DeepSeek's reasoner gets reasoning_content back on the turn with tool calls only", () => {
    const [withCalls, plain] = assistants({ id: "deepseek-reasoner", reasoning: true });
    expect(withCalls!.reasoning_content).toBe("need the tool");
    expect(plain).not.toHaveProperty("reasoning_content");
  });

  test("other models send nothing back unless replayReasoning says so", () => {
    expect(assistants({ id: "gpt-4.1" })[0]).not.toHaveProperty("reasoning_content");
    expect(assistants({ id: "qwen3", replayReasoning: true })[0]!.reasoning_content).toBe("need the tool");
    expect(assistants({ id: "deepseek-reasoner", reasoning: true, replayReasoning: false })[0]).not.toHaveProperty("reasoning_content");
  });

  test("a turn of another model sends the field empty, so DeepSeek still finds it", () => {
    expect(assistants({ id: "deepseek-chat", reasoning: true }, "other-model")[0]!.reasoning_content).toBe("");
  });
});
