import { describe, expect, test } from "bun:test";
import { getProvider } from "../../src/providers/registry.ts";
import type { ApiName } from "../../src/core/enums.ts";

describe("getProvider", () => {
  test("every API name has its provider", () => {
    const apis: ApiName[] = ["openai-chat", "openai-responses", "anthropic", "ollama", "google"];
    expect(apis.map((api) => getProvider(api).api)).toEqual(apis);
  });
});
