import { describe, expect, test } from "bun:test";
import { google } from "../../src/providers/google.ts";
import { fixtures } from "../support/fixtures/index.ts";
import { describeProviderContract } from "./contract.ts";

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
