/**
 * core/fast-check.ts accepts a config file without building the zod
 * schema; it must accept exactly what zod accepts, with the same defaults,
 * or step aside (undefined) so zod decides and words the message.
 */
import { describe, expect, test } from "bun:test";
import { fastCheck } from "../../src/core/fast-check.ts";
import { parseConfigFile } from "../../src/config/load.ts";
import { configJsonSchema, configSchema } from "../../src/config/schema.ts";
import { mutated } from "../support/mutate.ts";

const valid: unknown[] = [
  {},
  { defaultModel: "local/qwen", providers: { local: { api: "openai-chat", baseUrl: "http://127.0.0.1:9/v1", models: [{ id: "qwen", contextWindow: 32768 }] } } },
  { compaction: { reserveTokens: 8000 }, permissions: { bash: { allow: ["git status", "ls *"] } } },
  { permissions: { files: { protected: ["secret/**"] }, mode: "plan", prompt: "ui" }, sandbox: { mode: "workspace-write", network: true } },
  { hooks: { PreToolUse: [{ matcher: "bash", hooks: [{ type: "command", command: "true", timeout: 5 }] }], Stop: [] } },
  { costs: { "a/b": { input: 1 } }, limits: { maxTurns: 3, maxCostUsd: 0.5 }, cacheRetention: { anthropic: "1h" }, agent: { maxConcurrency: 2 } },
  { mcpServers: { fs: { command: "x", args: ["y"] } }, mcp: { waitMs: 0 }, retry: { enabled: false }, stream: { idleTimeoutMs: 5 } },
  { session: { backgroundLimit: 2 }, checkpoints: { enabled: false, maxAgeDays: 0.5 }, structuredOutput: { maxAttempts: 1 }, defaultThinkingLevel: "high" },
  {
    providers: {
      s: { api: "scripted", script: "demo.yml" },
      a: {
        api: "anthropic",
        baseUrl: "https://api.anthropic.com",
        apiKey: "k",
        headers: { "x-a": "b" },
        models: [{ id: "c", input: ["text", "image"], reasoning: true, thinkingLevels: ["off", "max"], replayReasoning: false, cost: { input: 3, output: 15 } }],
      },
      o: { api: "ollama", baseUrl: "http://localhost:11434", discover: true },
    },
  },
];

const refused: unknown[] = [
  { modles: [] },
  { providers: { local: { api: "openai-chat", modles: [] } } },
  { compaction: { reserveTokens: -1 } },
  { compaction: { reserveTokens: 1.5 } },
  { checkpoints: { maxAgeDays: Number.POSITIVE_INFINITY } },
  { defaultModel: "no-slash" },
  { hooks: null },
  { hooks: { Nope: [] } },
  { hooks: { Stop: [{ hooks: [{ type: "shell", command: "x" }] }] } },
  { retry: "yes" },
  { providers: { "bad name": { api: "openai-chat" } } },
  { providers: { x: { api: "gpt" } } },
  { providers: { x: { api: "openai-chat", baseUrl: "not a url" } } },
  { providers: { x: { api: "openai-chat", models: [{ contextWindow: 5 }] } } },
  { providers: { x: { api: "openai-chat", models: [{ id: "" }] } } },
  { permissions: { mode: "yolo" } },
  { cacheRetention: { a: "2h" } },
  [],
  "text",
];

/** zod's answer and config/load.ts's answer for one file */
function both(file: unknown) {
  return { zod: configSchema().safeParse(file, { reportInput: true }), nova: parseConfigFile({ value: file }), fast: fastCheck(configJsonSchema(), file) };
}

describe("config fast check", () => {
  for (const file of valid) {
    test(`accepts ${JSON.stringify(file)} with zod's defaults, without zod`, () => {
      const { zod, nova, fast } = both(file);
      expect(zod.success).toBe(true);
      expect(fast).toStrictEqual(zod.data);
      expect(nova.data).toStrictEqual(zod.data);
    });
  }

  for (const file of refused) {
    test(`leaves ${JSON.stringify(file)} to zod, which refuses it`, () => {
      const { zod, nova, fast } = both(file);
      expect(fast).toBeUndefined();
      expect(zod.success).toBe(false);
      expect(nova.success).toBe(false);
      expect(nova.error?.issues).toEqual(zod.error?.issues);
    });
  }

  test("a URL zod would rewrite (surrounding spaces) is left to zod, which keeps its trimmed form", () => {
    const file = { providers: { x: { api: "openai-chat", baseUrl: " http://h/v1 " } } };
    const { zod, nova, fast } = both(file);
    expect(fast).toBeUndefined();
    expect(nova.data).toStrictEqual(zod.data);
    expect(nova.data?.providers.x?.baseUrl).toBe("http://h/v1");
  });

  test("on thousands of mutated files it never accepts what zod refuses, nor differs from zod's value", () => {
    let accepted = 0;
    let refusedCount = 0;
    for (const file of mutated(valid, 4000, ["extra", "models", "modles"])) {
      const { zod, fast } = both(file);
      if (fast !== undefined) {
        accepted++;
        expect(zod.success).toBe(true);
        expect<unknown>(fast).toStrictEqual(zod.data);
      } else if (!zod.success) refusedCount++;
    }
    // both kinds were generated: the check above was exercised either way
    expect(accepted).toBeGreaterThan(500);
    expect(refusedCount).toBeGreaterThan(500);
  });
});
