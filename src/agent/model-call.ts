/** The next model call of a conversation: its provider, the request, and the tools the answer may call. */
import { type Config, configPath } from "../config/load.ts";
import type { ThinkingLevel } from "../core/enums.ts";
import type { AgentMessage } from "../core/messages.ts";
import { getProvider } from "../providers/registry.ts";
import type { Model, ProviderRequest } from "../providers/types.ts";
import type { Tool } from "../tools/types.ts";
import type { ModelCall } from "./loop.ts";
import type { StructuredOutput } from "./structured-output.ts";

/** Why no call can be made: it names the config file that was actually read. */
export function noModel(config: Pick<Config, "file" | "novaHome">): string {
  return `No model configured: add a provider to ${configPath(config)}, set an API key such as ANTHROPIC_API_KEY, or pass --model provider/id (--model scripted/demo needs no key).`;
}

export interface CallInput {
  config: Config;
  model: Model | undefined;
  thinkingLevel: ThinkingLevel;
  tools: Tool[];
  systemPrompt: () => Promise<string>;
  messages: AgentMessage[];
  /** the run's output schema: native on wire formats that have a mode for it, else a tool */
  output?: StructuredOutput;
  /** what providers with prompt caching key it on (the session id) */
  cacheKey?: string;
}

/** The call, or why none can be made. */
export async function modelCall({ config, model, thinkingLevel, tools: offered, systemPrompt, messages, output, cacheKey }: CallInput): Promise<ModelCall | string> {
  if (!model) return noModel(config);
  const native = output?.nativeFor(model.api) === true;
  const tools = output && !native ? [...offered, output.tool] : offered;
  const retention = config.cacheRetention[model.provider];
  const request: ProviderRequest = {
    model,
    auth: config.providers.find((p) => p.name === model.provider)?.auth ?? {},
    systemPrompt: await systemPrompt(),
    messages,
    tools: tools.map((t) => ({ name: t.name, description: t.description, parameters: t.parameters })),
    thinkingLevel,
    idleTimeoutMs: config.stream.idleTimeoutMs,
    maxLineBytes: config.stream.maxLineBytes,
    ...(native ? { outputSchema: { name: "output", schema: output.wire } } : {}),
    ...(cacheKey ? { cacheKey } : {}),
    ...(retention ? { cacheRetention: retention } : {}),
  };
  return { provider: getProvider(model.api), tools, request };
}
