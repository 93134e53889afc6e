import { describe, expect, test } from "bun:test";
import { anthropic } from "../../src/providers/anthropic.ts";
import { fixtures } from "../support/fixtures/index.ts";
import { describeProviderContract } from "./contract.ts";

describeProviderContract({
  provider: anthropic,
  fixture: fixtures.anthropic,
  model: { api: "anthropic" },
  baseUrlPath: "/v1",
  requestPath: "/v1/messages",
  authHeader: ["x-api-key", "sk-test-key"],
  reportsCacheRead: true,
  overflow: fixtures.httpError(400, {
    type: "error",
    error: { type: "invalid_request_error", message: "prompt is too long: 213462 tokens > 200000 maximum" },
  }),
});
