import { describe, expect, test } from "bun:test";
import { buildChatRequest, openaiChat } from "../../src/providers/openai-chat.ts";
import { fixtures } from "../support/fixtures/index.ts";
import { describeProviderContract } from "./contract.ts";

describeProviderContract({
  provider: openaiChat,
  fixture: fixtures.openaiChat,
  model: { api: "openai-chat" },
  baseUrlPath: "/v1",
  requestPath: "/v1/chat/completions",
  authHeader: ["authorization", "Bearer sk-test-key"],
  reportsCacheRead: true,
  overflow: fixtures.httpError(400, {
    error: {
      message: "This model's maximum context length is 128000 tokens. However, your messages resulted in 130000 tokens.",
      type: "invalid_request_error",
      code: "context_length_exceeded",
    },
  }),
});
