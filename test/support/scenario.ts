/**
 * A scripted provider plus a nova pointed at it: the usual setup of a
 * process-level agent test.
 */
import { afterEach } from "bun:test";
import { fixtures } from "./fixtures/index.ts";
import type { Scripted } from "./provider-server.ts";
import { startProviderServer, type ProviderServer } from "./provider-server.ts";
import { startNova, tempDir, type Frame, type Nova, type SpawnOptions } from "./nova.ts";

export type ApiName = "openai-chat" | "openai-responses" | "anthropic" | "ollama" | "google";
export const apis: ApiName[] = ["openai-chat", "openai-responses", "anthropic", "ollama", "google"];

export const fixturesFor = {
  "openai-chat": fixtures.openaiChat,
  "openai-responses": fixtures.openaiResponses,
  anthropic: fixtures.anthropic,
  ollama: fixtures.ollama,
  google: fixtures.google,
} as const;

/**
 * The config every process-level test uses: one provider "test" on the
 * scripted server with models m1 and m2; fields given here are merged in.
 */
export function testConfig(serverUrl: string, options: { api?: ApiName; m1?: Record<string, unknown>; m2?: Record<string, unknown>; extra?: Record<string, unknown> } = {}) {
  return {
    defaultModel: "test/m1",
    providers: {
      test: {
        api: options.api ?? "openai-chat",
        baseUrl: `${serverUrl}/v1`,
        apiKey: "sk-test-secret-key-123456",
        // the scripted server answers requests in order: a model listing would take a scripted answer
        ...((options.api ?? "openai-chat") === "ollama" ? { discover: false } : {}),
        models: [
          { id: "m1", contextWindow: 100000, maxTokens: 4096, ...options.m1 },
          { id: "m2", contextWindow: 50000, maxTokens: 2048, ...options.m2 },
        ],
      },
    },
    retry: { enabled: true, maxRetries: 3, baseDelayMs: 10, maxDelayMs: 100 },
    ...options.extra,
  };
}

export interface Scenario {
  server: ProviderServer;
  nova: Nova;
  cwd: string;
  f: (typeof fixturesFor)[ApiName];
  close(): Promise<void>;
}

export interface ScenarioOptions extends SpawnOptions {
  api?: ApiName;
  reasoning?: boolean;
  image?: boolean;
  /** merged into the config object */
  extra?: Record<string, unknown>;
  /** merged into the first model's declaration (m1) */
  model?: Record<string, unknown>;
}

export async function scenario(options: ScenarioOptions = {}): Promise<Scenario> {
  const api = options.api ?? "openai-chat";
  const server = await startProviderServer();
  const cwd = options.cwd ?? tempDir("nova-cwd-");
  const config = testConfig(server.url, {
    api,
    m1: { reasoning: options.reasoning ?? false, input: options.image === false ? ["text"] : ["text", "image"], ...options.model },
    extra: { stream: { idleTimeoutMs: 2000 }, ...options.extra },
  });
  const nova = await startNova({ args: ["--no-session"], ...options, cwd, config });
  return {
    server,
    nova,
    cwd,
    f: fixturesFor[api],
    async close() {
      await nova.stop();
      await server.close();
    },
  };
}

/** A scenario opener for a test file: whatever it opens is closed after each test. */
export function scenarios(): (options?: ScenarioOptions) => Promise<Scenario> {
  let open: Scenario[] = [];
  afterEach(async () => {
    await Promise.all(open.map((s) => s.close()));
    open = [];
  });
  return async (options) => {
    const s = await scenario(options);
    open.push(s);
    return s;
  };
}

/** Sends a prompt and resolves with every frame from its response to the agent_settled that ends it. */
export async function promptAndSettle(nova: Nova, message: string, extra: Frame = {}): Promise<Frame[]> {
  const from = nova.frames.length;
  const response = await nova.request({ type: "prompt", message, ...extra });
  if (!response.success) throw new Error(`prompt failed: ${response.error}`);
  await nova.waitFor((f) => f.type === "agent_settled", from);
  return nova.frames.slice(from);
}

/** Event types without message_update, the way a reader checks order. */
export function outline(frames: Frame[]): string[] {
  return frames.filter((f) => f.type !== "message_update" && f.type !== "response").map((f) => (f.type.startsWith("message_") ? `${f.type}:${f.message.role}` : f.type));
}

/** The same response cut right after the first chunk that contains `needle`, then ended as `end` says. */
export function cutAfter(scripted: Scripted, needle: string, end: "drop" | "stall"): Scripted {
  const decoder = new TextDecoder();
  const index = scripted.chunks.findIndex((c) => (typeof c === "string" ? c : decoder.decode(c)).includes(needle));
  if (index < 0) throw new Error(`no chunk contains ${JSON.stringify(needle)}`);
  return { ...scripted, chunks: scripted.chunks.slice(0, index + 1), end };
}
