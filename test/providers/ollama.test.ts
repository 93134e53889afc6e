import { describe, expect, test } from "bun:test";
import { ollama } from "../../src/providers/ollama.ts";
import { fixtures } from "../support/fixtures/index.ts";
import { describeProviderContract } from "./contract.ts";

describeProviderContract({
  provider: ollama,
  fixture: fixtures.ollama,
  model: { api: "ollama" },
  baseUrlPath: "",
  requestPath: "/api/chat",
  authHeader: ["authorization", "Bearer sk-test-key"],
  reportsCacheRead: false,
  overflow: fixtures.httpError(400, { error: "the input length exceeds the context length" }),
});
