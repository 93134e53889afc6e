/**
 * Asking a server which models it has, in its own list format: Ollama's
 * `GET /api/tags` plus `POST /api/show` per model (context length and
 * capabilities), or the OpenAI-style `GET /models` that llama.cpp's server,
 * LM Studio and vLLM answer. Only the wire: what to do with the list is the
 * caller's business.
 */
import { ProviderFailure, httpError, networkError } from "./errors.ts";
import { bearerHeaders, joinUrl } from "./http.ts";
import type { ApiName } from "../core/enums.ts";
import type { ProviderAuth } from "./types.ts";

export interface ListedModel {
  id: string;
  contextWindow?: number;
  /** known from the server: accepts images, calls tools, thinks */
  vision?: boolean;
  tools?: boolean;
  reasoning?: boolean;
}

/** Each request of a listing gives up after this long: a listing must never hang a start. */
const LIST_TIMEOUT_MS = 10_000;

export async function listModels(api: ApiName, baseUrl: string, auth: ProviderAuth, signal?: AbortSignal): Promise<ListedModel[]> {
  if (api === "ollama") return listOllama(baseUrl, auth, signal);
  return listOpenAi(baseUrl, auth, signal);
}

async function getJson(url: string, auth: ProviderAuth, signal: AbortSignal | undefined, body?: unknown): Promise<unknown> {
  const timeout = AbortSignal.timeout(LIST_TIMEOUT_MS);
  let res: Response;
  try {
    res = await fetch(url, {
      method: body === undefined ? "GET" : "POST",
      headers: { ...(body === undefined ? {} : { "content-type": "application/json" }), ...bearerHeaders(auth) },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
    });
  } catch (e) {
    if (timeout.aborted) throw new ProviderFailure({ message: `${url} did not answer within ${LIST_TIMEOUT_MS / 1000} s`, retryable: false });
    throw networkError(e, url);
  }
  if (!res.ok) throw new ProviderFailure(await httpError(res, LIST_TIMEOUT_MS));
  return res.json();
}

interface OllamaTags {
  models?: { name?: string; model?: string }[];
}

interface OllamaShow {
  model_info?: Record<string, unknown>;
  capabilities?: string[];
}

async function listOllama(baseUrl: string, auth: ProviderAuth, signal?: AbortSignal): Promise<ListedModel[]> {
  const tags = (await getJson(joinUrl(baseUrl, "api/tags"), auth, signal)) as OllamaTags;
  const names = (tags.models ?? []).flatMap((m) => (m.name || m.model ? [(m.name || m.model) as string] : []));
  return Promise.all(
    names.map(async (id): Promise<ListedModel> => {
      try {
        const show = (await getJson(joinUrl(baseUrl, "api/show"), auth, signal, { model: id })) as OllamaShow;
        return { id, ...ollamaDetails(show) };
      } catch {
        // a model whose details cannot be read is still installed: list it with the defaults
        return { id };
      }
    }),
  );
}

/** `<architecture>.context_length` and the capabilities list (Ollama 0.6.4+: completion, tools, vision, thinking). */
function ollamaDetails(show: OllamaShow): Omit<ListedModel, "id"> {
  const info = show.model_info ?? {};
  const arch = info["general.architecture"];
  const context = typeof arch === "string" ? info[`${arch}.context_length`] : undefined;
  const out: Omit<ListedModel, "id"> = {};
  if (typeof context === "number" && context > 0) out.contextWindow = context;
  if (Array.isArray(show.capabilities)) {
    out.vision = show.capabilities.includes("vision");
    out.tools = show.capabilities.includes("tools");
    out.reasoning = show.capabilities.includes("thinking");
  }
  return out;
}

interface OpenAiModels {
  data?: {
    id?: string;
    /** vLLM */
    max_model_len?: number;
    /** llama.cpp's server */
    meta?: { n_ctx_train?: number };
    /** OpenRouter, some proxies */
    context_length?: number;
  }[];
}

async function listOpenAi(baseUrl: string, auth: ProviderAuth, signal?: AbortSignal): Promise<ListedModel[]> {
  const list = (await getJson(joinUrl(baseUrl, "models"), auth, signal)) as OpenAiModels;
  return (list.data ?? []).flatMap((m) => {
    if (!m.id) return [];
    const context = m.max_model_len ?? m.context_length ?? m.meta?.n_ctx_train;
    return [{ id: m.id, ...(typeof context === "number" && context > 0 ? { contextWindow: context } : {}) }];
  });
}
