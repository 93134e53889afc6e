/** API name → provider: adding a wire format is one new file and one line here. */
import { anthropic } from "./anthropic.ts";
import { google } from "./google.ts";
import { ollama } from "./ollama.ts";
import { openaiChat } from "./openai-chat.ts";
import { openaiResponses } from "./openai-responses.ts";
import type { ApiName } from "../core/enums.ts";
import type { Provider } from "./types.ts";

export { clampThinking, supportedThinkingLevels } from "./thinking.ts";

const PROVIDERS: Record<ApiName, Provider> = {
  "openai-chat": openaiChat,
  "openai-responses": openaiResponses,
  anthropic,
  ollama,
  google,
  // loaded on first use: a start without a scripted model pays nothing for it
  scripted: lazy("scripted", async () => (await import("./scripted.ts")).scripted),
};

function lazy(api: ApiName, load: () => Promise<Provider>): Provider {
  let loaded: Promise<Provider> | undefined;
  return {
    api,
    async *stream(request, signal) {
      loaded ??= load();
      yield* (await loaded).stream(request, signal);
    },
  };
}

export function getProvider(api: ApiName): Provider {
  return PROVIDERS[api];
}
