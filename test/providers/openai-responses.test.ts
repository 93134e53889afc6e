import { describe, expect, test } from "bun:test";
import { openaiResponses } from "../../src/providers/openai-responses.ts";
import { fixtures } from "../support/fixtures/index.ts";
import { describeProviderContract } from "./contract.ts";

describeProviderContract({
  provider: openaiResponses,
  fixture: fixtures.openaiResponses,
  model: { api: "openai-responses" },
  baseUrlPath: "/v1",
  requestPath: "/v1/responses",
  authHeader: ["authorization", "Bearer sk-test-key"],
  reportsCacheRead: true,
  overflow: fixtures.httpError(400, {
    error: {
      message: "Your input exceeds the context window of this model. Please adjust your input and try again.",
      type: "invalid_request_error",
      code: "context_length_exceeded",
    },
  }),
});
