import { describe, expect, test } from "bun:test";
import { buildOllamaRequest, decodeOllama, ollama } from "../../src/providers/ollama.ts";
import { fixtures } from "../support/fixtures/index.ts";
import { assemble } from "./helpers.ts";
import { describeProviderContract } from "./contract.ts";
import { BASH_TEXT, PIXEL, SHOT, SUMMARY_TEXT, bodyOf, collect, conversation, testModel, testRequest } from "./helpers.ts";

describeProviderContract({
  provider: ollama,
  fixture: fixtures.ollama,
  model: { api: "ollama" },
  baseUrlPath: "",
  requestPath: "/api/chat",
  authHeader: ["authorization", "Bearer sk-test-key"],
  reportsCacheRead: false,
  midStreamError: {
    scripted: fixtures.ollama.streamError("an error was encountered while running the model"),
    expected: { message: "an error was encountered while running the model", retryable: false },
  },
  overflow: fixtures.httpError(400, { error: "the input length exceeds the context length" }),
});

const decode = async (body: Parameters<typeof bodyOf>[0]) => assemble(await collect(decodeOllama(bodyOf(body))));

describe("ollama request", () => {
  const model = testModel({ api: "ollama", baseUrl: "http://127.0.0.1:11434", contextWindow: 65536 });

  test("converts every message kind, with images as bare base64 on user and tool messages", () => {
    const { url, body } = buildOllamaRequest(testRequest(model, { messages: conversation(model) }));
    expect(url).toBe("http://127.0.0.1:11434/api/chat");
    expect(body).toMatchObject({ model: "test-model", stream: true, options: { num_ctx: 65536 } });
    expect((body as { messages: unknown }).messages).toEqual([
      { role: "system", content: "You are a test." },
      { role: "user", content: SUMMARY_TEXT },
      { role: "user", content: "look at this", images: [PIXEL] },
      { role: "assistant", content: "I'll read it.", tool_calls: [{ function: { name: "read", arguments: { path: "a.gif" } } }] },
      { role: "tool", tool_name: "read", content: "Read image a.gif", images: [SHOT] },
      { role: "user", content: BASH_TEXT },
      { role: "user", content: "thanks" },
    ]);
  });

  test("think follows the level only for reasoning models", () => {
    const reasoning = testModel({ api: "ollama", reasoning: true });
    expect(buildOllamaRequest(testRequest(reasoning, { thinkingLevel: "low" })).body).toMatchObject({ think: true });
    expect(buildOllamaRequest(testRequest(reasoning, { thinkingLevel: "off" })).body).toMatchObject({ think: false });
    expect((buildOllamaRequest(testRequest(model, { thinkingLevel: "high" })).body as Record<string, unknown>).think).toBeUndefined();
  });
});

describe("ollama stream", () => {
  test("tool calls get fresh unique ids; string arguments are passed on as JSON text", async () => {
    const line = (message: object, done = false) =>
      `${JSON.stringify({ message: { role: "assistant", content: "", ...message }, done, done_reason: done ? "stop" : undefined })}\n`;
    const result = await decode(line({ tool_calls: [{ function: { name: "a", arguments: { x: 1 } } }, { function: { name: "b", arguments: '{"y":2}' } }] }) + line({}, true));
    expect(result.blocks.map((b) => b.type === "toolCall" && [b.name, b.arguments])).toEqual([
      ["a", { x: 1 }],
      ["b", { y: 2 }],
    ]);
    const ids = result.blocks.map((b) => (b.type === "toolCall" ? b.id : ""));
    expect(ids[0]).toMatch(/^call_[0-9a-f]{24}$/);
    expect(ids[0]).not.toBe(ids[1]);
    expect(result.stop).toBe("toolUse");
  });
});
