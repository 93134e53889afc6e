import { describe, expect, test } from "bun:test";
import { buildGoogleRequest, decodeGoogle, google } from "../../src/providers/google.ts";
import { fixtures } from "../support/fixtures/index.ts";
import { assemble } from "./helpers.ts";
import { describeProviderContract } from "./contract.ts";
import { BASH_TEXT, PIXEL, SHOT, SUMMARY_TEXT, bodyOf, collect, conversation, testModel, testRequest } from "./helpers.ts";

describeProviderContract({
  provider: google,
  fixture: fixtures.google,
  model: { api: "google", id: "gemini-test" },
  baseUrlPath: "/v1beta",
  requestPath: "/v1beta/models/gemini-test:streamGenerateContent?alt=sse",
  authHeader: ["x-goog-api-key", "sk-test-key"],
  reportsCacheRead: true,
  overflow: fixtures.httpError(400, {
    error: {
      code: 400,
      message: "The input token count (1200000) exceeds the maximum number of tokens allowed (1048576).",
      status: "INVALID_ARGUMENT",
    },
  }),
});

const chunk = (data: object) => `data: ${JSON.stringify(data)}\r\n\r\n`;
const decode = async (body: Parameters<typeof bodyOf>[0]) => assemble(await collect(decodeGoogle(bodyOf(body))));

describe("google request", () => {
  const model = testModel({ api: "google", id: "gemini-test", baseUrl: "http://host/v1beta", reasoning: true, maxTokens: 30000 });

  test("converts every message kind to alternating contents, echoing this model's signatures", () => {
    const tools = [{ name: "read", description: "Read a file", parameters: { type: "object" } }];
    const { url, headers, body } = buildGoogleRequest(testRequest(model, { messages: conversation(model), tools, thinkingLevel: "medium" }));
    expect(url).toBe("http://host/v1beta/models/gemini-test:streamGenerateContent?alt=sse");
    expect(headers).toEqual({ "x-goog-api-key": "sk-test-key" });
    const b = body as Record<string, unknown>;
    expect(b.systemInstruction).toEqual({ parts: [{ text: "You are a test." }] });
    expect(b.generationConfig).toEqual({ maxOutputTokens: 30000, thinkingConfig: { includeThoughts: true, thinkingBudget: 10240 } });
    expect(b.tools).toEqual([{ functionDeclarations: [{ name: "read", description: "Read a file", parametersJsonSchema: { type: "object" } }] }]);
    expect(b.contents).toEqual([
      {
        role: "user",
        parts: [{ text: SUMMARY_TEXT }, { text: "look at this" }, { inlineData: { mimeType: "image/png", data: PIXEL } }],
      },
      {
        role: "model",
        parts: [
          { text: "hmm", thought: true, thoughtSignature: "sig-1" },
          { text: "I'll read it.", thoughtSignature: "msg_1" },
          { functionCall: { name: "read", args: { path: "a.gif" } }, thoughtSignature: "ts-1" },
        ],
      },
      {
        role: "user",
        parts: [
          { functionResponse: { name: "read", response: { output: "Read image a.gif" } } },
          { inlineData: { mimeType: "image/gif", data: SHOT } },
          { text: BASH_TEXT },
          { text: "thanks" },
        ],
      },
    ]);
  });

  test("an errored tool result is sent as an error response", () => {
    const messages = conversation(model).slice(1, 4);
    const result = messages[2];
    if (result!.role === "toolResult") result!.isError = true;
    const contents = (buildGoogleRequest(testRequest(model, { messages })).body as { contents: { parts: Record<string, unknown>[] }[] }).contents;
    expect(contents[2]!.parts[0]).toEqual({ functionResponse: { name: "read", response: { error: "Read image a.gif" } } });
  });
});

describe("google stream", () => {
  test("thought parts, signatures and whole function calls; the last usage wins", async () => {
    const result = await decode(
      fixtures.google.turn([{ thinking: "plan it", signature: "th-sig" }, { toolCall: { name: "ls", args: { dir: "." }, signature: "fc-sig" } }], {
        usage: { input: 50, output: 7, cacheRead: 20 },
      }),
    );
    expect(result.blocks).toMatchObject([
      { type: "thinking", thinking: "plan it", thinkingSignature: "th-sig" },
      { type: "toolCall", name: "ls", arguments: { dir: "." }, thoughtSignature: "fc-sig" },
    ]);
    expect(result.usage).toMatchObject({ input: 50, output: 7, cacheRead: 20 });
    expect(result.stop).toBe("toolUse");
  });

  test("a safety stop is an error", async () => {
    const body = chunk({ candidates: [{ content: { parts: [{ text: "I" }] }, finishReason: "SAFETY" }] });
    await expect(decode(body)).rejects.toThrow("SAFETY");
  });

  test("thoughts tokens count as output", async () => {
    const body = chunk({
      candidates: [{ content: { parts: [{ text: "ok" }] }, finishReason: "STOP" }],
      usageMetadata: { promptTokenCount: 10, candidatesTokenCount: 3, thoughtsTokenCount: 4 },
    });
    expect((await decode(body)).usage).toMatchObject({ input: 10, output: 7, cacheRead: 0 });
  });
});
