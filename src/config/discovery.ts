/**
 * Models a server lists, added to its provider in the background: Ollama's
 * installed models, and those of an `openai-chat` (or `openai-responses`)
 * provider with `discover: true`. Declared models always win and stay usable
 * whatever the server says; a server that does not answer costs one line on
 * stderr. Loaded with `import()` after start, so it never delays `ready`.
 */
import { listModels, type ListedModel } from "../providers/list-models.ts";
import type { Model } from "../providers/types.ts";
import type { Config, ProviderEntry } from "./load.ts";
import { thinkingLevels } from "../core/enums.ts";

/** The model a listing leaves unsaid: what the config's defaults give a declared one. */
const DEFAULTS = { contextWindow: 128000, maxTokens: 8192 };

/**
 * A model of a discovering provider that was asked for before its list
 * arrived (`--model ollama/qwen2.5-coder:7b`): usable at once with the
 * defaults, and filled in when the list comes.
 */
export function provisionalModel(entry: ProviderEntry, id: string): Model {
  const model = discoveredModel(entry, { id });
  entry.models.push(model);
  return model;
}

/**
 * `--model P/id` (or `--provider P --model id`, with an optional `:level`)
 * naming a discovering provider's model that is not listed yet: provisioned,
 * so the launch finds it.
 */
export function provisionRequested(config: Config, raw: string, provider: string | undefined): void {
  const colon = raw.lastIndexOf(":");
  const ref = colon > 0 && (thinkingLevels as readonly string[]).includes(raw.slice(colon + 1)) ? raw.slice(0, colon) : raw;
  const slash = ref.indexOf("/");
  const [name, id] = provider ? [provider, ref] : slash > 0 ? [ref.slice(0, slash), ref.slice(slash + 1)] : [undefined, ref];
  const entry = name === undefined ? undefined : config.providers.find((p) => p.name === name);
  if (entry?.discover && id && !entry.models.some((m) => m.id === id)) provisionalModel(entry, id);
}

/** Lists every discovering provider's models at once; resolves when all have answered or failed. */
export async function discoverModels(config: Config, warn: (line: string) => void): Promise<void> {
  await Promise.all(config.providers.filter((p) => p.discover).map((entry) => discoverOne(entry, warn)));
}

async function discoverOne(entry: ProviderEntry, warn: (line: string) => void): Promise<void> {
  let listed: ListedModel[];
  try {
    listed = await listModels(entry.api, entry.baseUrl, entry.auth);
  } catch (e) {
    const message = (e as Error).message;
    // the built-in Ollama of a user who never installed it is not news
    if (entry.implicit && /connection refused/.test(message)) return;
    warn(`${entry.name}: could not list its models (${message}); its declared models stay usable`);
    return;
  }
  for (const item of listed) {
    const known = entry.models.find((m) => m.id === item.id);
    if (!known) entry.models.push(discoveredModel(entry, item));
    // a provisional model is the same object the session may already use: fill it in place
    else if (known.discovered) Object.assign(known, discoveredModel(entry, item));
  }
}

function discoveredModel(entry: ProviderEntry, item: ListedModel): Model {
  const contextWindow = item.contextWindow ?? DEFAULTS.contextWindow;
  return {
    id: item.id,
    name: item.id,
    api: entry.api,
    provider: entry.name,
    baseUrl: entry.baseUrl,
    reasoning: item.reasoning ?? false,
    input: item.vision ? ["text", "image"] : ["text"],
    contextWindow,
    maxTokens: Math.min(DEFAULTS.maxTokens, contextWindow),
    cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
    ...(item.tools === false ? { tools: false } : {}),
    discovered: true,
  };
}
