import { describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { ConfigError, loadConfig } from "../../src/config/load.ts";
import { tempDir } from "../support/nova.ts";

function write(text: string): string {
  const file = join(tempDir("nova-config-"), "config.yml");
  writeFileSync(file, text);
  return file;
}

function errorOf(fn: () => unknown): string {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as Error).message;
  }
  throw new Error("expected a ConfigError");
}

const good = `
defaultModel: local/qwen2.5-coder
providers:
  local:
    api: openai-chat
    baseUrl: http://127.0.0.1:8080/v1/
    apiKey: \${LOCAL_KEY}
    headers: { X-Extra: "1" }
    models:
      - id: qwen2.5-coder
        contextWindow: 32768
        maxTokens: 4096
        input: [text, image]
permissions:
  bash:
    ask: ["git push *"]
    deny: ["shutdown *"]
compaction: { enabled: false, reserveTokens: 1000, keepRecentTokens: 2000 }
retry: { enabled: true, maxRetries: 5, baseDelayMs: 10 }
`;

describe("loadConfig", () => {
  test("a good file gives providers, models, rules and settings, with ${ENV} substituted", () => {
    const config = loadConfig({ configFile: write(good), env: { LOCAL_KEY: "s3cret-key", HOME: "/h" } });
    const local = config.providers.find((p) => p.name === "local")!;
    expect(local.api).toBe("openai-chat");
    expect(local.baseUrl).toBe("http://127.0.0.1:8080/v1");
    expect(local.auth).toEqual({ apiKey: "s3cret-key", headers: { "X-Extra": "1" } });
    expect(local.models[0]).toMatchObject({
      id: "qwen2.5-coder",
      provider: "local",
      api: "openai-chat",
      contextWindow: 32768,
      maxTokens: 4096,
      input: ["text", "image"],
      reasoning: false,
    });
    expect(config.defaultModel).toBe("local/qwen2.5-coder");
    expect(config.permissions).toEqual({ ask: ["git push *"], allow: [], deny: ["shutdown *"] });
    expect(config.compaction).toEqual({ enabled: false, reserveTokens: 1000, keepRecentTokens: 2000 });
    expect(config.retry.maxRetries).toBe(5);
    expect(config.secrets).toContain("s3cret-key");
    expect(config.novaHome).toBe("/h/.nova");
  });

  test("an unset ${ENV} becomes empty with a warning naming the field", () => {
    const config = loadConfig({ configFile: write(good), env: {} });
    expect(config.providers.find((p) => p.name === "local")!.auth.apiKey).toBeUndefined();
    expect(config.warnings).toEqual(["providers.local.apiKey: environment variable LOCAL_KEY is not set"]);
  });

  test("bad YAML names the file and the line", () => {
    const file = write("providers:\n  local:\n    api: openai-chat\n    baseUrl: [unclosed\n");
    const message = errorOf(() => loadConfig({ configFile: file, env: {} }));
    expect(message).toStartWith(`${file}:`);
    expect(message).toMatch(/:\d+: invalid YAML/);
  });

  test("a bad field names the file, the line and the field path", () => {
    const file = write("providers:\n  local:\n    api: openai-chat\n    baseUrl: http://x\n    models:\n      - id: m\n        contextWindow: big\n");
    expect(errorOf(() => loadConfig({ configFile: file, env: {} }))).toBe(`${file}:7: providers.local.models[0].contextWindow must be a number, got "big"`);
  });

  test("an unknown api names the allowed ones", () => {
    const file = write("providers:\n  x:\n    api: soap\n    baseUrl: http://x\n");
    expect(errorOf(() => loadConfig({ configFile: file, env: {} }))).toBe(
      `${file}:3: providers.x.api must be one of "openai-chat", "openai-responses", "anthropic", "ollama", "google", "scripted", got "soap"`,
    );
  });

  test("api scripted reads script (relative to the config file) and has no baseUrl; every other api needs one", () => {
    const file = write("providers:\n  ci:\n    api: scripted\n    script: scripts/ci.yml\n    models: [{id: replay}]\n");
    const ci = loadConfig({ configFile: file, env: {} }).providers.find((p) => p.name === "ci")!;
    expect(ci.models[0]).toMatchObject({ id: "replay", api: "scripted", baseUrl: `file://${join(dirname(file), "scripts/ci.yml")}` });
    expect(errorOf(() => loadConfig({ configFile: write("providers:\n  ci:\n    api: scripted\n"), env: {} }))).toMatch(
      /:3: providers\.ci\.script: a scripted provider needs the script file$/,
    );
    expect(errorOf(() => loadConfig({ configFile: write("providers:\n  ci:\n    api: scripted\n    script: a.yml\n    baseUrl: http://x\n"), env: {} }))).toContain(
      "providers.ci.baseUrl: a scripted provider has none",
    );
    expect(errorOf(() => loadConfig({ configFile: write("providers:\n  o:\n    api: openai-chat\n"), env: {} }))).toMatch(
      /:3: providers\.o\.baseUrl: required for api openai-chat$/,
    );
  });

  test("the built-in scripted provider exists only when named", () => {
    expect(loadConfig({ env: { NOVA_HOME: "/nonexistent" } }).providers.some((p) => p.name === "scripted")).toBe(false);
    const config = loadConfig({ env: { NOVA_HOME: "/nonexistent" }, requested: "scripted/demo" });
    expect(config.providers.find((p) => p.name === "scripted")?.models.map((m) => m.id)).toEqual(["demo"]);
    expect(config.permissionMode).toBe("default");
  });

  test("a missing --config file is an error; a missing default file is not", () => {
    expect(errorOf(() => loadConfig({ configFile: "/nonexistent/nova.yml", env: {} }))).toContain("config file not found");
    const config = loadConfig({ env: { NOVA_HOME: tempDir() } });
    expect(config.file).toBeUndefined();
    expect(config.providers.map((p) => p.name)).toEqual(["ollama"]);
  });

  test("API keys in the environment add their providers; the built-in Ollama follows OLLAMA_HOST", () => {
    const config = loadConfig({
      env: {
        NOVA_HOME: tempDir(),
        ANTHROPIC_API_KEY: "sk-ant-test-1234",
        OPENAI_API_KEY: "sk-test-5678",
        GEMINI_API_KEY: "AIza-test",
        OPENROUTER_API_KEY: "sk-or-test",
        OLLAMA_HOST: "10.1.2.3:11434",
      },
    });
    const byName = Object.fromEntries(config.providers.map((p) => [p.name, p]));
    expect(Object.keys(byName).sort()).toEqual(["anthropic", "google", "ollama", "openai", "openrouter"]);
    expect(byName.anthropic!.api).toBe("anthropic");
    expect(byName.anthropic!.auth.apiKey).toBe("sk-ant-test-1234");
    expect(byName.anthropic!.models.length).toBeGreaterThan(0);
    expect(byName.google!.api).toBe("google");
    expect(byName.openrouter!.api).toBe("openai-chat");
    expect(byName.ollama!.baseUrl).toBe("http://10.1.2.3:11434");
    expect(config.secrets).toEqual(expect.arrayContaining(["sk-ant-test-1234", "sk-test-5678", "AIza-test", "sk-or-test"]));
  });

  test("mcpServers: stdio and URL servers with ${ENV}, MCP settings and rules; a bad entry names its line and field", () => {
    const file = write(`
mcpServers:
  local: { command: run-it, args: [--fast], env: { API_TOKEN: "\${MCP_TOKEN}" } }
  remote: { url: "https://mcp.example.com/mcp", headers: { Authorization: "Bearer \${MCP_TOKEN}" } }
mcp: { waitMs: 500 }
permissions:
  mcp: { allow: ["local__*"] }
`);
    const config = loadConfig({ configFile: file, env: { MCP_TOKEN: "tok-1234567890" } });
    expect(config.mcpServers).toEqual({
      local: { command: "run-it", args: ["--fast"], env: { API_TOKEN: "tok-1234567890" }, enabled: true },
      remote: { url: "https://mcp.example.com/mcp", headers: { Authorization: "Bearer tok-1234567890" }, enabled: true },
    });
    expect(config.mcp).toEqual({ waitMs: 500, connectTimeoutMs: 30000, callTimeoutMs: 600000 });
    expect(config.mcpPermissions).toEqual({ allow: ["local__*"], deny: [] });
    expect(config.secrets).toEqual(expect.arrayContaining(["tok-1234567890", "Bearer tok-1234567890"]));
    const bad = write("mcpServers:\n  x:\n    command: foo\n    args: [1]\n");
    expect(errorOf(() => loadConfig({ configFile: bad, env: {} }))).toBe(`${bad}:4: mcpServers.x.args[0] must be a string, got 1`);
  });

  test("a defaultModel that no provider declares is a warning naming it", () => {
    const file = write("defaultModel: local/missing\nproviders:\n  local:\n    api: ollama\n    baseUrl: http://x\n    models: [{id: here}]\n");
    const config = loadConfig({ configFile: file, env: {} });
    expect(config.warnings).toEqual(["defaultModel: local/missing is not declared by any provider; the first declared model is used instead"]);
  });

  test("a provider in the file wins over the one an environment key would add", () => {
    const file = write("providers:\n  anthropic:\n    api: anthropic\n    baseUrl: http://127.0.0.1:1/v1\n    models: [{id: mine}]\n");
    const config = loadConfig({ configFile: file, env: { ANTHROPIC_API_KEY: "k" } });
    const anthropic = config.providers.filter((p) => p.name === "anthropic");
    expect(anthropic).toHaveLength(1);
    expect(anthropic[0]!.models.map((m) => m.id)).toEqual(["mine"]);
  });
});
