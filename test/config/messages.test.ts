/**
 * Config and model mistakes, through the real process: each message names
 * the file nova read and the key or setting to fix.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { configSchema as fullSchema } from "../../src/config/schema.ts";

const configSchema = fullSchema();
import { knownKeys, nearest } from "../../src/config/unknown-keys.ts";
import { type Nova, spawnNova, startNova, tempDir } from "../support/nova.ts";
import { promptAndSettle } from "../support/scenario.ts";

const running: Nova[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((n) => n.stop()));
});

/** Runs nova on a config file of this text; resolves with the exit code and stderr. */
async function startWith(text: string, args: string[] = []): Promise<{ code: number; stderr: string; file: string }> {
  const file = join(tempDir("nova-cfg-"), "my-nova.yml");
  writeFileSync(file, text);
  const nova = spawnNova({ args: ["--config", file, ...args] });
  nova.closeStdin();
  return { code: await nova.exited, stderr: nova.stderr, file };
}

describe("unknown keys", () => {
  test("a misspelt key names file:line, the path and the nearest known key", async () => {
    const text = "defaultModel: local/qwen\nproviders:\n  local:\n    api: openai-chat\n    baseUrl: http://127.0.0.1:8080/v1\n    modles:\n      - id: qwen\n";
    const { code, stderr, file } = await startWith(text);
    expect(code).toBe(2);
    expect(stderr).toBe(`nova: ${file}:6: providers.local.modles: unknown key; did you mean "models"?\n`);
  });

  test.each([
    ["retry:\n  maxRetrys: 2\n", 2, 'retry.maxRetrys: unknown key; did you mean "maxRetries"?'],
    [
      "providers:\n  x:\n    api: ollama\n    baseUrl: http://h\n    models:\n      - id: a\n        contextWindw: 4\n",
      7,
      'providers.x.models[0].contextWindw: unknown key; did you mean "contextWindow"?',
    ],
    ["stream: {}\nzzz: 1\n", 2, "zzz: unknown key; known keys here: "],
  ])("%j", async (text, line, message) => {
    const { code, stderr, file } = await startWith(text);
    expect(code).toBe(2);
    expect(stderr).toStartWith(`nova: ${file}:${line}: ${message}`);
  });

  test("the known keys are the schema's own, so a field added there is known everywhere", () => {
    expect(knownKeys(configSchema, [])).toEqual(Object.keys(configSchema._zod.def.shape));
    expect(knownKeys(configSchema, ["providers", "any-name"])).toContain("discover");
    expect(knownKeys(configSchema, ["providers", "x", "models", 0])).toContain("replayReasoning");
    expect(nearest("modles", ["models", "api"])).toBe("models");
    expect(nearest("colour", ["models", "api"])).toBeUndefined();
  });

  test("every object in the config schema is strict, so no section accepts keys in silence", () => {
    const loose: string[] = [];
    const walk = (node: any, path: string) => {
      const def = node?._zod?.def;
      if (!def) return;
      if (def.type === "object") {
        if (def.catchall?._zod?.def?.type !== "never") loose.push(path || "(top)");
        for (const [key, value] of Object.entries(def.shape)) walk(value, path ? `${path}.${key}` : key);
      } else walk(def.innerType ?? def.valueType ?? def.element, path);
    };
    walk(configSchema, "");
    expect(loose).toEqual([]);
  });

  test("the documented example config is accepted as a whole", async () => {
    const doc = readFileSync(join(import.meta.dir, "../../docs/config.md"), "utf8");
    const example = doc.slice(doc.indexOf("```yaml") + 7, doc.indexOf("```", doc.indexOf("```yaml") + 7));
    const file = join(tempDir("nova-cfg-"), "example.yml");
    writeFileSync(file, example.replaceAll("${LOCAL_KEY}", "k"));
    const nova = await startNova({ args: ["--config", file] });
    running.push(nova);
    expect(nova.stderr).not.toContain("unknown key");
  });
});

describe("messages name the file that was read", () => {
  test("No model configured names the --config file", async () => {
    const file = join(tempDir("nova-cfg-"), "elsewhere.yml");
    writeFileSync(file, "retry: { enabled: false }\n");
    const nova = await startNova({ args: ["--config", file, "--no-session"] });
    running.push(nova);
    const frames = await promptAndSettle(nova, "hi");
    const end = frames.find((f) => f.type === "agent_end")!;
    expect(end.messages.at(-1).errorMessage).toStartWith(`No model configured: add a provider to ${file}, `);
  });
});

describe("a known provider without credentials", () => {
  test("--model anthropic/… without a key says how to give one", async () => {
    const nova = spawnNova({ args: ["--model", "anthropic/claude-sonnet-4-5"] });
    nova.closeStdin();
    expect(await nova.exited).toBe(2);
    expect(nova.stderr).toBe("nova: anthropic has no API key: set ANTHROPIC_API_KEY, pass --api-key, or use login\n");
  });

  test("set_model to such a model fails with the same sentence; an unknown provider is not found", async () => {
    const nova = await startNova({ args: ["--no-session"] });
    running.push(nova);
    const keyless = await nova.request({ type: "set_model", provider: "google", modelId: "gemini-2.5-pro" });
    expect(keyless).toMatchObject({ success: false, error: "google has no API key: set GEMINI_API_KEY, pass --api-key, or use login" });
    const unknown = await nova.request({ type: "set_model", provider: "nope", modelId: "x" });
    expect(unknown).toMatchObject({ success: false, error: "Model not found: nope/x" });
  });
});
