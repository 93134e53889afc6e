/**
 * The one interface every wire format implements. A provider turns a
 * `ProviderRequest` (agent messages, tools, options) into its HTTP request,
 * streams the body through our SSE/NDJSON parser, and yields `ProviderEvent`s.
 * Providers never see queues, sessions or RPC frames.
 */
import type { ApiName, ThinkingLevel } from "../core/enums.ts";
import type { ErrorKind } from "../core/errors.ts";
import type { AgentMessage, StopReason, Usage } from "../core/messages.ts";

export interface ModelCost {
  /** $ per million tokens */
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
}

/** A model as the config declares it; also the `Model` object Pi hosts read. */
export interface Model {
  id: string;
  name: string;
  api: ApiName;
  provider: string;
  baseUrl: string;
  reasoning: boolean;
  /** the thinking levels a reasoning model takes, when the config lists them; otherwise off through high */
  thinkingLevels?: ThinkingLevel[];
  input: ("text" | "image")[];
  contextWindow: number;
  maxTokens: number;
  cost: ModelCost;
  /** openai-chat: send `reasoning_content` back on assistant turns with tool calls (default: DeepSeek's reasoning models) */
  replayReasoning?: boolean;
  /** false when the server says the model cannot call tools (Ollama's capabilities): none are sent */
  tools?: boolean;
  /** listed by the server (Ollama's /api/tags, an openai-chat server's /v1/models), not declared */
  discovered?: boolean;
}

/** Connection details that never leave the process (not in events, sessions or exports). */
export interface ProviderAuth {
  apiKey?: string;
  headers?: Record<string, string>;
}

export interface ToolSpec {
  name: string;
  description: string;
  /** JSON Schema of the arguments object */
  parameters: Record<string, unknown>;
}

/** What one response may cost: a stall guard and the longest streamed line. */
export interface StreamLimits {
  /** fail when the body sends nothing for this long */
  idleTimeoutMs: number;
  /** fail when one SSE/NDJSON line grows past this many bytes (default 16 MiB) */
  maxLineBytes?: number;
}

export interface ProviderRequest extends StreamLimits {
  model: Model;
  auth: ProviderAuth;
  systemPrompt: string;
  messages: AgentMessage[];
  tools: ToolSpec[];
  thinkingLevel: ThinkingLevel;
  /** the answer must be JSON in this schema (wire formats with a native mode for it) */
  outputSchema?: { name: string; schema: Record<string, unknown> };
  /** what the provider's prompt cache is keyed on (OpenAI's prompt_cache_key): the session id */
  cacheKey?: string;
  /** how long Anthropic cache breakpoints live; default the provider's 5 minutes */
  cacheRetention?: "5m" | "1h";
}

/**
 * The internal stream. Blocks are identified by `index` (position in the final
 * assistant content array). A provider may interleave deltas of several blocks;
 * the agent loop serialises them into start/delta/end for the host.
 */
export type ProviderEvent =
  | { type: "text_delta"; index: number; delta: string }
  | { type: "text_signature"; index: number; signature: string }
  | { type: "thinking_delta"; index: number; delta: string }
  | { type: "thinking_signature"; index: number; signature: string; redacted?: boolean }
  | { type: "toolcall_start"; index: number; id: string; name: string }
  | { type: "toolcall_delta"; index: number; delta: string }
  /** a provider that sends whole arguments objects (ollama, google) */
  | { type: "toolcall_args"; index: number; arguments: Record<string, unknown>; thoughtSignature?: string }
  | { type: "usage"; usage: Partial<Omit<Usage, "cost" | "totalTokens">> }
  | { type: "stop"; reason: Exclude<StopReason, "error" | "aborted"> }
  | { type: "error"; error: ProviderError };

export interface ProviderError {
  message: string;
  /** HTTP status when the request itself failed */
  status?: number;
  /** seconds, from a retry-after header */
  retryAfterSeconds?: number;
  /** 429, 5xx, overloaded, network: worth an automatic retry */
  retryable: boolean;
  /** the prompt is too long for the model's context */
  contextOverflow?: boolean;
  /** the model or the provider declined to answer */
  kind?: Extract<ErrorKind, "refusal">;
}

/** What a provider stream yields: one event, or the events of one read of the response together (one await for all of them). */
export type ProviderEvents = ProviderEvent | ProviderEvent[];

export interface Provider {
  readonly api: ApiName;
  stream(request: ProviderRequest, signal: AbortSignal): AsyncIterable<ProviderEvents>;
}

/** The events of one item of a provider stream. */
export function eventsOf(item: ProviderEvents): ProviderEvent[] {
  return Array.isArray(item) ? item : [item];
}
