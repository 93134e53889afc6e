/**
 * The environment every process nova starts for the model (bash; hooks and
 * MCP stdio servers call the same function): nova's own environment without
 * the provider keys nova uses, without the variables a config `${VAR}` read
 * into a secret field (`apiKey`, headers), and without any variable holding
 * one of those secret values under another name. `permissions.env.pass`
 * names variables to hand on anyway. Set once at start from the config;
 * until then only the well-known key variables are removed.
 */
import { presets } from "../config/env-providers.ts";
import type { ToolEnvPolicy } from "../config/load.ts";

/** The provider key variables nova reads, removed even before a policy is set. */
export const PROVIDER_KEY_VARS = presets.map((p) => p.keyVar);

let policy: ToolEnvPolicy = { secretVars: PROVIDER_KEY_VARS, secretValues: [], pass: [] };

export function setToolEnvPolicy(next: ToolEnvPolicy): void {
  policy = { ...next, secretVars: [...new Set([...PROVIDER_KEY_VARS, ...next.secretVars])] };
}

/** A copy of `base` (default: nova's environment) fit for a tool process, with `extra` on top. */
export function toolEnvironment(extra: Record<string, string> = {}, base: Record<string, string | undefined> = process.env): Record<string, string | undefined> {
  const names = new Set(policy.secretVars);
  const values = new Set(policy.secretValues.filter((v) => v !== ""));
  const pass = new Set(policy.pass);
  const env: Record<string, string | undefined> = {};
  for (const [name, value] of Object.entries(base)) {
    if (value === undefined) continue;
    if (!pass.has(name) && (names.has(name) || values.has(value))) continue;
    env[name] = value;
  }
  return { ...env, ...extra };
}
