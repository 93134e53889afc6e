/**
 * Reads the YAML config, substitutes ${ENV} references, validates it, and
 * adds the providers implied by API keys in the environment. Errors name the
 * file, the line and the field so a user can fix them without guessing.
 */
import { existsSync, readFileSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import type { Document } from "yaml";
import { describeIssue } from "../core/describe-issue.ts";
import type { ApiName, PermissionMode } from "../core/enums.ts";
import type { Model, ProviderAuth } from "../providers/types.ts";
import { configSchema, type ConfigFile } from "./schema.ts";
import { envProviders, scriptedProvider } from "./env-providers.ts";
import { readAuth } from "./auth.ts";

export class ConfigError extends Error {}

export interface ProviderEntry {
  name: string;
  api: ApiName;
  baseUrl: string;
  auth: ProviderAuth;
  models: Model[];
}

export interface Config {
  novaHome: string;
  /** the file read, if any */
  file?: string;
  defaultModel?: string;
  defaultThinkingLevel?: ConfigFile["defaultThinkingLevel"];
  providers: ProviderEntry[];
  permissions: ConfigFile["permissions"]["bash"];
  /** permissions.mode: what a flagged command does when nothing on the command line says otherwise */
  permissionMode: PermissionMode;
  compaction: ConfigFile["compaction"];
  retry: ConfigFile["retry"];
  stream: ConfigFile["stream"];
  session: ConfigFile["session"];
  agent: ConfigFile["agent"];
  /** file checkpoints around tool batches (docs/checkpoints.md) */
  checkpoints: ConfigFile["checkpoints"];
  /** the OS sandbox for tool commands (docs/sandbox.md); `--sandbox` overrides the mode */
  sandbox: ConfigFile["sandbox"];
  /** values that must never reach stdout, logs, sessions or exports */
  secrets: string[];
  /** the environment the config was read with (base URL overrides for providers added by login) */
  env: Record<string, string | undefined>;
  warnings: string[];
}

export function novaHomeFrom(env: Record<string, string | undefined>): string {
  return env.NOVA_HOME || join(env.HOME || homedir(), ".nova");
}

/** `requested`: the provider/id the command line names, so a built-in provider it needs (scripted) is added. */
export function loadConfig(options: { configFile?: string; env: Record<string, string | undefined>; requested?: string }): Config {
  const { env } = options;
  const novaHome = novaHomeFrom(env);
  const file = options.configFile ?? join(novaHome, "config.yml");
  if (options.configFile && !existsSync(file)) throw new ConfigError(`${file}: config file not found`);
  const warnings: string[] = [];
  const raw = existsSync(file) ? parseYaml(file, readFileSync(file, "utf8"), env, warnings) : {};
  const config = configSchema.safeParse(raw.value ?? {}, { reportInput: true });
  if (!config.success) {
    const issue = config.error.issues[0];
    const line = raw.lineOf?.(issue.path);
    throw new ConfigError(`${file}${line ? `:${line}` : ""}: ${describeIssue(issue)}`);
  }
  for (const [name, p] of Object.entries(config.data.providers)) {
    const problem =
      p.api === "scripted"
        ? p.script === undefined ? "script: a scripted provider needs the script file" : p.baseUrl !== undefined ? "baseUrl: a scripted provider has none (its replies come from script)" : undefined
        : p.baseUrl === undefined ? `baseUrl: required for api ${p.api}` : p.script !== undefined ? `script: only api scripted reads a script, not ${p.api}` : undefined;
    if (!problem) continue;
    const line = raw.lineOf?.(["providers", name]);
    throw new ConfigError(`${file}${line ? `:${line}` : ""}: providers.${name}.${problem}`);
  }
  return build(config.data, { novaHome, file: raw.value ? file : undefined, env, warnings, requested: options.requested });
}

function parseYaml(
  file: string,
  text: string,
  env: Record<string, string | undefined>,
  warnings: string[],
): { value?: unknown; lineOf?: (path: PropertyKey[]) => number | undefined } {
  // loaded only when there is a file to read: most spawns have none
  const { LineCounter, parseDocument } = require("yaml") as typeof import("yaml");
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, prettyErrors: false });
  if (doc.errors.length > 0) {
    const error = doc.errors[0];
    const line = lineCounter.linePos(error.pos[0]).line;
    throw new ConfigError(`${file}${line ? `:${line}` : ""}: invalid YAML: ${error.message.split("\n")[0]}`);
  }
  substituteEnv(doc, env, warnings);
  const lineOf = (path: PropertyKey[]) => {
    for (let n = path.length; n > 0; n--) {
      const node = doc.getIn(path.slice(0, n) as unknown[], true) as { range?: [number, number, number] } | undefined;
      if (node?.range) return lineCounter.linePos(node.range[0]).line;
    }
    return undefined;
  };
  return { value: doc.toJS(), lineOf };
}

const envRef = /\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g;

/** Replaces ${VAR} in every string scalar; an unset variable becomes "" and a warning. */
function substituteEnv(doc: Document, env: Record<string, string | undefined>, warnings: string[]): void {
  const { isScalar } = require("yaml") as typeof import("yaml");
  const visit = (node: unknown, path: string) => {
    if (isScalar(node)) {
      if (typeof node.value === "string" && node.value.includes("${")) {
        node.value = node.value.replace(envRef, (_, name: string) => {
          if (env[name] === undefined) warnings.push(`${path}: environment variable ${name} is not set`);
          return env[name] ?? "";
        });
      }
      return;
    }
    const items = (node as { items?: unknown[] } | null)?.items;
    if (!items) return;
    items.forEach((item, i) => {
      const pair = item as { key?: { value?: unknown }; value?: unknown };
      if (pair && typeof pair === "object" && "key" in pair) visit(pair.value, path ? `${path}.${String(pair.key?.value)}` : String(pair.key?.value));
      else visit(item, `${path}[${i}]`);
    });
  };
  visit(doc.contents, "");
}

function build(
  file: ConfigFile,
  ctx: { novaHome: string; file?: string; env: Record<string, string | undefined>; warnings: string[]; requested?: string },
): Config {
  const providers: ProviderEntry[] = [];
  const secrets: string[] = [];
  for (const [name, p] of Object.entries(file.providers)) {
    const apiKey = p.apiKey || undefined;
    if (apiKey) secrets.push(apiKey);
    for (const value of Object.values(p.headers ?? {})) if (value.length >= 8) secrets.push(value);
    // a scripted provider's "endpoint" is its script file
    const baseUrl = p.script !== undefined ? pathToFileURL(resolve(ctx.file ? dirname(ctx.file) : process.cwd(), p.script)).href : p.baseUrl!.replace(/\/+$/, "");
    providers.push({
      name,
      api: p.api,
      baseUrl,
      auth: { apiKey, headers: p.headers },
      models: p.models.map((m) => ({
        id: m.id,
        name: m.name ?? m.id,
        api: p.api,
        provider: name,
        baseUrl,
        reasoning: m.reasoning,
        ...(m.thinkingLevels ? { thinkingLevels: m.thinkingLevels } : {}),
        input: m.input,
        contextWindow: m.contextWindow,
        maxTokens: m.maxTokens,
        cost: m.cost ?? { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
        ...(m.replayReasoning !== undefined ? { replayReasoning: m.replayReasoning } : {}),
      })),
    });
  }
  for (const extra of envProviders(ctx.env, readAuth(ctx.novaHome))) {
    if (providers.some((p) => p.name === extra.name)) continue;
    if (extra.auth.apiKey) secrets.push(extra.auth.apiKey);
    providers.push(extra);
  }
  const scripted = [ctx.requested, file.defaultModel].some((named) => named?.startsWith("scripted/"));
  if (scripted && !providers.some((p) => p.name === "scripted")) providers.push(scriptedProvider());
  const wanted = file.defaultModel;
  if (wanted && !providers.some((p) => p.models.some((m) => `${p.name}/${m.id}` === wanted))) {
    ctx.warnings.push(`defaultModel: ${wanted} is not declared by any provider; the first declared model is used instead`);
  }
  return {
    novaHome: ctx.novaHome,
    file: ctx.file,
    defaultModel: file.defaultModel,
    defaultThinkingLevel: file.defaultThinkingLevel,
    providers,
    permissions: file.permissions.bash,
    permissionMode: file.permissions.mode,
    compaction: file.compaction,
    retry: file.retry,
    stream: file.stream,
    session: file.session,
    agent: file.agent,
    sandbox: file.sandbox,
    checkpoints: file.checkpoints,
    secrets,
    env: ctx.env,
    warnings: ctx.warnings,
  };
}
