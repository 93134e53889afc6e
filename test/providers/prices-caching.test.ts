/**
 * Real costs and prompt caching through the process: the API-key presets'
 * built-in prices (config/prices.json), cache reads and writes from every
 * wire format in usage, prompt_cache_key on OpenAI requests and Anthropic's
 * cache retention.
 */
import { afterEach, describe, expect, test } from "bun:test";
import table from "../../src/config/prices.json";
import { startProviderServer, type ProviderServer } from "../support/provider-server.ts";
import { startNova, type Frame, type Nova } from "../support/nova.ts";
import { apis, fixturesFor, promptAndSettle, scenarios } from "../support/scenario.ts";
import { fixtures } from "../support/fixtures/index.ts";

const open = scenarios();
let server: ProviderServer | undefined;
let nova: Nova | undefined;
afterEach(async () => {
  await nova?.stop();
  await server?.close();
  nova = server = undefined;
});

const presets = [
  { name: "openai", keyVar: "OPENAI_API_KEY", baseVar: "OPENAI_BASE_URL", model: "gpt-4.1", f: fixtures.openaiResponses, cacheWrite: 0 },
  { name: "anthropic", keyVar: "ANTHROPIC_API_KEY", baseVar: "ANTHROPIC_BASE_URL", model: "claude-sonnet-4-5", f: fixtures.anthropic, cacheWrite: 500 },
  { name: "google", keyVar: "GEMINI_API_KEY", baseVar: "GEMINI_BASE_URL", model: "gemini-2.5-pro", f: fixtures.google, cacheWrite: 0 },
  { name: "openrouter", keyVar: "OPENROUTER_API_KEY", baseVar: "OPENROUTER_BASE_URL", model: "anthropic/claude-sonnet-4.5", f: fixtures.openaiChat, cacheWrite: 0 },
] as const;

const answers = (frames: Frame[]) => frames.filter((f) => f.type === "message_end" && f.message.role === "assistant").map((f) => f.message);

describe("the price table", () => {
  test.each(presets)("$name/$model: usage.cost and get_session_stats.cost follow config/prices.json", async (preset) => {
    server = await startProviderServer();
    nova = await startNova({
      args: ["--no-session", "--model", `${preset.name}/${preset.model}`],
      env: { [preset.keyVar]: "sk-test-key-0123456789", [preset.baseVar]: `${server.url}/v1` },
      config: { cacheRetention: { anthropic: "1h" } },
    });
    const usage = { input: 1000, output: 200, cacheRead: 3000, cacheWrite: preset.cacheWrite };
    server.enqueue(preset.f.text("one", { usage }), preset.f.text("two", { usage }));
    const frames = [...(await promptAndSettle(nova, "first")), ...(await promptAndSettle(nova, "second"))];
    const price = (table.models as Record<string, { input: number; output: number; cacheRead: number; cacheWrite: number }>)[`${preset.name}/${preset.model}`]!;
    expect(price.input).toBeGreaterThan(0);
    const expected = (usage.input * price.input + usage.output * price.output + usage.cacheRead * price.cacheRead + usage.cacheWrite * price.cacheWrite) / 1e6;
    const got = answers(frames);
    expect(got).toHaveLength(2);
    for (const message of got) {
      expect(message.usage).toMatchObject({ input: 1000, output: 200, cacheRead: 3000, cacheWrite: preset.cacheWrite });
      expect(message.usage.cost.cacheRead).toBeCloseTo((3000 * price.cacheRead) / 1e6, 12);
      expect(message.usage.cost.total).toBeCloseTo(expected, 12);
    }
    const stats = (await nova.request({ type: "get_session_stats" })).data;
    expect(stats.cost).toBeCloseTo(2 * expected, 12);
    expect(stats.tokens.cacheRead).toBe(6000);

    // prompt caching on the wire
    const sessionId = (await nova.request({ type: "get_state" })).data.sessionId;
    const body = server.requests[1]!.body;
    if (preset.name === "openai" || preset.name === "openrouter") expect(body.prompt_cache_key).toBe(sessionId);
    else expect(body.prompt_cache_key).toBeUndefined();
    if (preset.name === "anthropic") {
      expect(body.system.at(-1).cache_control).toEqual({ type: "ephemeral", ttl: "1h" });
      expect(body.messages.at(-1).content.at(-1).cache_control).toEqual({ type: "ephemeral", ttl: "1h" });
    }
  });

  test("the config's costs override a preset model's built-in price", async () => {
    server = await startProviderServer();
    nova = await startNova({
      args: ["--no-session", "--model", "openai/gpt-5"],
      env: { OPENAI_API_KEY: "sk-test-key-0123456789", OPENAI_BASE_URL: `${server.url}/v1` },
      config: { costs: { "openai/gpt-5": { input: 100, output: 0, cacheRead: 0, cacheWrite: 0 } } },
    });
    server.enqueue(fixtures.openaiResponses.text("hi", { usage: { input: 10000, output: 50 } }));
    const [message] = answers(await promptAndSettle(nova, "go"));
    expect(message.usage.cost.total).toBeCloseTo(1, 12);
  });
});

describe("cache usage on every wire format", () => {
  test.each(apis)("%s: cache reads (and writes where the API reports them) reach usage and cost", async (api) => {
    const s = await open({ api, model: { cost: { input: 2, output: 8, cacheRead: 0.5, cacheWrite: 4 } } });
    const f = fixturesFor[api];
    // Ollama's API reports no cache; Anthropic alone reports writes
    const cacheRead = api === "ollama" ? 0 : 600;
    const cacheWrite = api === "anthropic" ? 50 : 0;
    s.server.enqueue(f.text("hi", { usage: { input: 100, output: 20, cacheRead, cacheWrite } }));
    const [message] = answers(await promptAndSettle(s.nova, "go"));
    expect(message.usage).toMatchObject({ input: 100, output: 20, cacheRead, cacheWrite });
    expect(message.usage.cost.total).toBeCloseTo((100 * 2 + 20 * 8 + cacheRead * 0.5 + cacheWrite * 4) / 1e6, 12);
    const body = s.server.requests[0]!.body;
    if (api === "openai-chat" || api === "openai-responses") expect(typeof body.prompt_cache_key).toBe("string");
    if (api === "anthropic") expect(body.system.at(-1).cache_control).toEqual({ type: "ephemeral" });
  });
});
