/**
 * `login {providerId}`: the API-key flow. The host is shown where to make a
 * key (`open_url` with credential "api-key"), asked for it (`input`), and the
 * key is stored in auth.json and used from then on. It is never echoed.
 */
import type { Config } from "../config/load.ts";
import { presetProvider, presets } from "../config/env-providers.ts";
import { saveApiKey } from "../config/auth.ts";
import { applyCosts } from "../config/prices.ts";
import type { HostUi } from "../host/services.ts";
import { CommandError } from "./errors.ts";

export function loginProviders(config: Config) {
  return {
    providers: presets.map((p) => ({
      id: p.name,
      name: p.label,
      kind: "api-key" as const,
      url: p.keyUrl,
      loggedIn: config.providers.some((entry) => entry.name === p.name && !!entry.auth.apiKey),
    })),
  };
}

export async function login(config: Config, providerId: string, ui: HostUi | undefined, signal?: AbortSignal) {
  const preset = presets.find((p) => p.name === providerId);
  if (!preset) throw new CommandError(`Unknown login provider "${providerId}"; known: ${presets.map((p) => p.name).join(", ")}`);
  if (!ui) throw new CommandError("login needs a host that answers extension_ui_request dialogs");
  ui.openUrl({ url: preset.keyUrl, instructions: `Create an API key for ${preset.label}, then paste it when asked.`, credential: "api-key" });
  const key = (await ui.input(`Paste your ${preset.label} API key`, "API key", { signal, secret: true }))?.trim();
  if (!key) throw new CommandError(`Login to ${preset.label} cancelled: no key was entered`);
  saveApiKey(config.novaHome, preset.name, key);
  config.secrets.push(key);
  const entry = presetProvider(preset, key, config.env);
  applyCosts(entry.models, config.costs);
  const index = config.providers.findIndex((p) => p.name === preset.name);
  if (index >= 0) config.providers[index] = entry;
  else config.providers.unshift(entry);
  return { providerId: preset.name, loggedIn: true, models: entry.models.map((m) => m.id) };
}
