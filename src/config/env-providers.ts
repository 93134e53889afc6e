/**
 * Providers that exist without a config file: one per API key found in the
 * environment, plus the built-in Ollama at $OLLAMA_HOST. Each key's provider
 * comes with a few current models so that a prompt works out of the box.
 */
import type { ApiName } from "../core/enums.ts";
import type { Model } from "../providers/types.ts";
import type { ProviderEntry } from "./load.ts";
import { builtinCost } from "./prices.ts";

export interface Preset {
  name: string;
  /** shown to the user by `login` */
  label: string;
  /** where a key is made */
  keyUrl: string;
  api: ApiName;
  keyVar: string;
  baseUrlVar: string;
  baseUrl: string;
  models: [id: string, contextWindow: number, maxTokens: number, reasoning: boolean, image: boolean][];
}

export const presets: Preset[] = [
  {
    name: "openai",
    label: "OpenAI",
    keyUrl: "https://platform.openai.com/api-keys",
    api: "openai-responses",
    keyVar: "OPENAI_API_KEY",
    baseUrlVar: "OPENAI_BASE_URL",
    baseUrl: "https://api.openai.com/v1",
    models: [
      ["gpt-5", 400000, 128000, true, true],
      ["gpt-5-mini", 400000, 128000, true, true],
      ["gpt-4.1", 1047576, 32768, false, true],
    ],
  },
  {
    name: "anthropic",
    label: "Anthropic",
    keyUrl: "https://console.anthropic.com/settings/keys",
    api: "anthropic",
    keyVar: "ANTHROPIC_API_KEY",
    baseUrlVar: "ANTHROPIC_BASE_URL",
    baseUrl: "https://api.anthropic.com/v1",
    models: [
      ["claude-sonnet-4-5", 200000, 64000, true, true],
      ["claude-opus-4-1", 200000, 32000, true, true],
      ["claude-haiku-4-5", 200000, 64000, true, true],
    ],
  },
  {
    name: "google",
    label: "Google Gemini",
    keyUrl: "https://aistudio.google.com/apikey",
    api: "google",
    keyVar: "GEMINI_API_KEY",
    baseUrlVar: "GEMINI_BASE_URL",
    baseUrl: "https://generativelanguage.googleapis.com/v1beta",
    models: [
      ["gemini-2.5-pro", 1048576, 65536, true, true],
      ["gemini-2.5-flash", 1048576, 65536, true, true],
    ],
  },
  {
    name: "openrouter",
    label: "OpenRouter",
    keyUrl: "https://openrouter.ai/keys",
    api: "openai-chat",
    keyVar: "OPENROUTER_API_KEY",
    baseUrlVar: "OPENROUTER_BASE_URL",
    baseUrl: "https://openrouter.ai/api/v1",
    models: [
      ["anthropic/claude-sonnet-4.5", 200000, 64000, true, true],
      ["openai/gpt-5", 400000, 128000, true, true],
    ],
  },
];

/** Keys from the environment win over keys stored by `login`. */
export function envProviders(env: Record<string, string | undefined>, stored: Record<string, { key: string }> = {}): ProviderEntry[] {
  const out: ProviderEntry[] = [];
  for (const preset of presets) {
    const apiKey = env[preset.keyVar] || stored[preset.name]?.key;
    if (apiKey) out.push(presetProvider(preset, apiKey, env));
  }
  const ollamaHost = (env.OLLAMA_HOST || "http://127.0.0.1:11434").replace(/\/+$/, "");
  out.push({
    name: "ollama",
    api: "ollama",
    baseUrl: /^https?:\/\//.test(ollamaHost) ? ollamaHost : `http://${ollamaHost}`,
    auth: {},
    models: [],
    discover: true,
    implicit: true,
  });
  return out;
}

/**
 * Why `provider/id` is no model nova can use. A provider nova knows that is
 * missing only because no key was given says how to give one; anything else
 * is simply not found.
 */
export function modelNotFound(providers: ProviderEntry[], provider: string, id: string): string {
  return missingKey(providers, provider) ?? `Model not found: ${provider}/${id}`;
}

/** How to give a key to a provider nova knows that is missing only for want of one. */
export function missingKey(providers: ProviderEntry[], provider: string): string | undefined {
  const preset = presets.find((p) => p.name === provider);
  if (!preset || providers.some((p) => p.name === provider)) return undefined;
  return `${provider} has no API key: set ${preset.keyVar}, pass --api-key, or use login`;
}

export function presetProvider(preset: Preset, apiKey: string, env: Record<string, string | undefined>): ProviderEntry {
  const baseUrl = (env[preset.baseUrlVar] || preset.baseUrl).replace(/\/+$/, "");
  return {
    name: preset.name,
    api: preset.api,
    baseUrl,
    auth: { apiKey },
    models: preset.models.map(([id, contextWindow, maxTokens, reasoning, image]) => model(preset, baseUrl, id, contextWindow, maxTokens, reasoning, image)),
  };
}

function model(preset: Preset, baseUrl: string, id: string, contextWindow: number, maxTokens: number, reasoning: boolean, image: boolean): Model {
  return {
    id,
    name: id,
    api: preset.api,
    provider: preset.name,
    baseUrl,
    reasoning,
    input: image ? ["text", "image"] : ["text"],
    contextWindow,
    maxTokens,
    cost: builtinCost(preset.name, id),
  };
}

/** The scripts built into nova (src/providers/scripts/), as models of the provider `scripted`. */
export const builtinScripts = ["demo"];

/**
 * `--model scripted/demo` works with no config: the provider is added when
 * the command line or defaultModel names it, so it never shows up otherwise.
 */
export function scriptedProvider(): ProviderEntry {
  const models = builtinScripts.map(
    (id): Model => ({
      id,
      name: `${id} (scripted)`,
      api: "scripted",
      provider: "scripted",
      baseUrl: `builtin:${id}`,
      reasoning: false,
      input: ["text", "image"],
      contextWindow: 128000,
      maxTokens: 8192,
      cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
    }),
  );
  return { name: "scripted", api: "scripted", baseUrl: "builtin:", auth: {}, models };
}
