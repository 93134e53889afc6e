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
import type { ConfigFile, McpServerSpec } from "./schema.ts";
import { mcpServerSchema } from "./mcp-schema.ts";
import { unknownKeyMessage } from "./unknown-keys.ts";
import { fastYaml } from "./fast-yaml.ts";
import { envProviders, scriptedProvider } from "./env-providers.ts";
import { readAuth } from "./auth.ts";
import { applyCosts } from "./prices.ts";
import { fastCheck, type SchemaNode } from "../core/fast-check.ts";

export class ConfigError extends Error {}

export interface ProviderEntry {
  name: string;
  api: ApiName;
  baseUrl: string;
  auth: ProviderAuth;
  models: Model[];
  /** list the server's models in the background (Ollama's /api/tags, an OpenAI-style /models) */
  discover?: boolean;
  /** the built-in Ollama nobody configured: a server that is not running is no news */
  implicit?: boolean;
}

export interface Config {
  novaHome: string;
  /** the file read, if any */
  file?: string;
  defaultModel?: string;
  defaultThinkingLevel?: ConfigFile["defaultThinkingLevel"];
  providers: ProviderEntry[];
  permissions: ConfigFile["permissions"]["bash"];
  /** permissions.prompt, when the file sets it */
  permissionPrompt?: ConfigFile["permissions"]["prompt"];
  mcpPermissions: ConfigFile["permissions"]["mcp"];
  /** permissions.files: protected patterns and allow/deny path rules for write/edit */
  filePermissions: ConfigFile["permissions"]["files"];
  /** permissions.tools: allow/deny rules by tool name (host tools and any other) */
  toolPermissions: ConfigFile["permissions"]["tools"];
  /** hooks, when the file has any */
  hooks?: ConfigFile["hooks"];
  mcpServers: Record<string, McpServerSpec>;
  mcp: ConfigFile["mcp"];
  /** permissions.mode: what a flagged command does when nothing on the command line says otherwise */
  permissionMode: PermissionMode;
  compaction: ConfigFile["compaction"];
  retry: ConfigFile["retry"];
  stream: ConfigFile["stream"];
  session: ConfigFile["session"];
  agent: ConfigFile["agent"];
  /** "provider/id" → price, over the built-in table (config/prices.ts) */
  costs: ConfigFile["costs"];
  /** per-prompt limits a prompt does not set itself */
  limits: ConfigFile["limits"];
  structuredOutput: ConfigFile["structuredOutput"];
  /** provider name → Anthropic cache breakpoint lifetime */
  cacheRetention: ConfigFile["cacheRetention"];
  /** file checkpoints around tool batches (docs/checkpoints.md) */
  checkpoints: ConfigFile["checkpoints"];
  /** the OS sandbox for tool commands (docs/sandbox.md); `--sandbox` overrides the mode */
  sandbox: ConfigFile["sandbox"];
  /** values that must never reach stdout, logs, sessions or exports */
  secrets: string[];
  /** what tool processes must not inherit (tools/environment.ts) */
  toolEnv: ToolEnvPolicy;
  /** the environment the config was read with (base URL overrides for providers added by login) */
  env: Record<string, string | undefined>;
  warnings: string[];
}

/** The APIs whose servers nova can ask for their models. */
const LISTING_APIS: string[] = ["ollama", "openai-chat", "openai-responses"];

/** What tool processes must not inherit; applied by tools/environment.ts. */
export interface ToolEnvPolicy {
  /** variable names that carry secrets */
  secretVars: readonly string[];
  /** secret values: a variable holding one is removed whatever its name */
  secretValues: readonly string[];
  /** variables passed on even though they hold a secret (`permissions.env.pass`) */
  pass: readonly string[];
}

/** Config fields whose values are secrets: `providers.<name>.apiKey` and `providers.<name>.headers.<header>`. */
function isSecretField(path: readonly PropertyKey[]): boolean {
  return path[0] === "providers" && (path[2] === "apiKey" || path[2] === "headers");
}

/** Header names whose values are credentials however short they are. */
const SECRET_HEADER = /auth|key|token|secret|cookie|password|session/i;

export function novaHomeFrom(env: Record<string, string | undefined>): string {
  return env.NOVA_HOME || join(env.HOME || homedir(), ".nova");
}

/** The config file a message should name: the one read, else where nova looks for one. */
export function configPath(config: Pick<Config, "file" | "novaHome">): string {
  return config.file ?? join(config.novaHome, "config.yml");
}

/** `requested`: the provider/id the command line names, so a built-in provider it needs (scripted) is added. */
export function loadConfig(options: { configFile?: string; env: Record<string, string | undefined>; requested?: string }): Config {
  const { env } = options;
  const novaHome = novaHomeFrom(env);
  const file = options.configFile ?? join(novaHome, "config.yml");
  if (options.configFile && !existsSync(file)) throw new ConfigError(`${file}: config file not found`);
  const warnings: string[] = [];
  const secretVars = new Set<string>();
  const raw = existsSync(file) ? readConfigText(file, readFileSync(file, "utf8"), env, warnings, secretVars) : {};
  const config = parseConfigFile(raw);
  if (!config.success) {
    const { configSchema } = require("./schema.ts") as typeof import("./schema.ts");
    const issue = config.error.issues[0]!;
    if (issue.code === "unrecognized_keys") {
      const key = issue.keys[0]!;
      const line = raw.lineOf?.([...issue.path, key], true);
      throw new ConfigError(`${file}${line ? `:${line}` : ""}: ${unknownKeyMessage(configSchema(), issue.path, key)}`);
    }
    const line = raw.lineOf?.(issue.path);
    throw new ConfigError(`${file}${line ? `:${line}` : ""}: ${describeConfigIssue(issue)}`);
  }
  for (const [name, p] of Object.entries(config.data.providers)) {
    if (p.discover && !LISTING_APIS.includes(p.api)) {
      const line = raw.lineOf?.(["providers", name, "discover"]);
      throw new ConfigError(`${file}${line ? `:${line}` : ""}: providers.${name}.discover: only ${LISTING_APIS.join(", ")} servers list their models, got api "${p.api}"`);
    }
    const problem =
      p.api === "scripted"
        ? p.script === undefined
          ? "script: a scripted provider needs the script file"
          : p.baseUrl !== undefined
            ? "baseUrl: a scripted provider has none (its replies come from script)"
            : undefined
        : p.baseUrl === undefined
          ? `baseUrl: required for api ${p.api}`
          : p.script !== undefined
            ? `script: only api scripted reads a script, not ${p.api}`
            : undefined;
    if (!problem) continue;
    const line = raw.lineOf?.(["providers", name]);
    throw new ConfigError(`${file}${line ? `:${line}` : ""}: providers.${name}.${problem}`);
  }
  const mcpServers: Record<string, McpServerSpec> = {};
  for (const [name, spec] of Object.entries(config.data.mcpServers)) {
    const server = mcpServerSchema().safeParse(spec, { reportInput: true });
    if (!server.success) {
      const issue = innermost(server.error.issues[0]!, spec);
      const path = ["mcpServers", name, ...issue.path];
      const line = raw.lineOf?.(path);
      throw new ConfigError(`${file}${line ? `:${line}` : ""}: ${describeIssue({ ...issue, path })}`);
    }
    mcpServers[name] = server.data;
  }
  return build({ ...config.data, mcpServers }, { novaHome, file: "value" in raw ? file : undefined, env, warnings, requested: options.requested, secretVars });
}

/** Config defaults baked in by build.ts (the schema's parse of `{}`); absent when running from source. */
declare const NOVA_CONFIG_DEFAULTS: ConfigFile | undefined;
/** The config schema as JSON Schema, baked in by build.ts; absent when running from source. */
declare const NOVA_CONFIG_JSON_SCHEMA: SchemaNode | undefined;

/**
 * The file's value checked against the config schema. Without a file the
 * compiled binary takes the baked-in defaults; with one, core/fast-check.ts
 * walks the baked JSON Schema. Neither builds the zod schema (several
 * milliseconds of a start); only a file the walk does not accept goes through
 * zod, which gives the message.
 */
export function parseConfigFile(raw: { value?: unknown }) {
  if (!("value" in raw) && typeof NOVA_CONFIG_DEFAULTS !== "undefined") return { success: true as const, data: structuredClone(NOVA_CONFIG_DEFAULTS), error: undefined };
  const value = raw.value ?? {};
  const jsonSchema = typeof NOVA_CONFIG_JSON_SCHEMA !== "undefined" ? NOVA_CONFIG_JSON_SCHEMA : (require("./schema.ts") as typeof import("./schema.ts")).configJsonSchema();
  const checked = fastCheck(jsonSchema, value);
  if (checked !== undefined) return { success: true as const, data: checked as ConfigFile, error: undefined };
  const { configSchema } = require("./schema.ts") as typeof import("./schema.ts");
  return configSchema().safeParse(value, { reportInput: true, jitless: true });
}

/** A union failure explained by the shape the entry meant: stdio with `command`, HTTP with `url`. */
function innermost<I extends { code?: string; path: PropertyKey[] }>(issue: I, spec: unknown): I {
  const errors = (issue as { errors?: I[][] }).errors;
  if (issue.code !== "invalid_union" || !errors) return issue;
  const shape = spec && typeof spec === "object" && "url" in spec && !("command" in spec) ? 1 : 0;
  return errors[shape]?.[0] ?? issue;
}

/** describeIssue, except that the value of a secret field is never shown, only its type. */
function describeConfigIssue(issue: Parameters<typeof describeIssue>[0]): string {
  const input = (issue as { input?: unknown }).input;
  if (!isSecretField(issue.path) || input === undefined) return describeIssue(issue);
  const hidden = describeIssue({ ...issue, input: SECRET_MARK } as typeof issue);
  return hidden.replace(JSON.stringify(SECRET_MARK), `${input === null ? "null" : `a ${typeof input}`} (not shown: the field holds a secret)`);
}

const SECRET_MARK = "\u0000secret\u0000";

type ConfigText = { value?: unknown; lineOf?: (path: PropertyKey[], key?: boolean) => number | undefined };

/**
 * The file's value with ${VAR} expanded: through Bun's own YAML parser where
 * that gives what the `yaml` package would (config/fast-yaml.ts), else through
 * the package, which also reports the lines of errors (loaded only then).
 */
function readConfigText(file: string, text: string, env: Record<string, string | undefined>, warnings: string[], secretVars: Set<string>): ConfigText {
  const fast = fastYaml(text);
  if (!fast) return parseYaml(file, text, env, warnings, secretVars);
  let slow: ConfigText | undefined;
  return {
    value: substituteEnvIn(fast.value, "", env, warnings, secretVars),
    lineOf: (path, key) => (slow ??= parseYaml(file, text, env, [], new Set())).lineOf?.(path, key),
  };
}

/** substituteEnv for a plain value: the same paths, the same warnings, the same secrets. */
function substituteEnvIn(value: unknown, path: string, env: Record<string, string | undefined>, warnings: string[], secretVars: Set<string>): unknown {
  if (typeof value === "string") return value.includes("${") ? expandRefs(value, path, env, warnings, secretVars) : value;
  if (Array.isArray(value)) return value.map((item, i) => substituteEnvIn(item, `${path}[${i}]`, env, warnings, secretVars));
  if (value === null || typeof value !== "object") return value;
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) out[key] = substituteEnvIn(item, path ? `${path}.${key}` : key, env, warnings, secretVars);
  return out;
}

function expandRefs(text: string, path: string, env: Record<string, string | undefined>, warnings: string[], secretVars: Set<string>): string {
  const secret = isSecretField(path.split("."));
  return text.replace(envRef, (_, name: string) => {
    if (secret) secretVars.add(name);
    if (env[name] === undefined) warnings.push(`${path}: environment variable ${name} is not set`);
    return env[name] ?? "";
  });
}

function parseYaml(file: string, text: string, env: Record<string, string | undefined>, warnings: string[], secretVars: Set<string>): ConfigText {
  // loaded only when there is a file to read: most spawns have none
  const { LineCounter, parseDocument } = require("yaml") as typeof import("yaml");
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, prettyErrors: false });
  if (doc.errors.length > 0) {
    const error = doc.errors[0]!;
    const line = lineCounter.linePos(error.pos[0]).line;
    throw new ConfigError(`${file}${line ? `:${line}` : ""}: invalid YAML: ${error.message.split("\n")[0]}`);
  }
  substituteEnv(doc, env, warnings, secretVars);
  /** the line of the value at `path`, or with `key` the line of its key (a misspelt key's value may start lines later) */
  const lineOf = (path: PropertyKey[], key = false) => {
    if (key) {
      const parent = doc.getIn(path.slice(0, -1) as unknown[], true) as { items?: { key?: { value?: unknown; range?: [number, number, number] } }[] } | undefined;
      const pair = parent?.items?.find((item) => item.key?.value === path.at(-1));
      if (pair?.key?.range) return lineCounter.linePos(pair.key.range[0]).line;
    }
    for (let n = path.length; n > 0; n--) {
      const node = doc.getIn(path.slice(0, n) as unknown[], true) as { range?: [number, number, number] } | undefined;
      if (node?.range) return lineCounter.linePos(node.range[0]).line;
    }
    return undefined;
  };
  return { value: doc.toJS(), lineOf };
}

const envRef = /\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g;

/**
 * Replaces ${VAR} in every string scalar; an unset variable becomes "" and a
 * warning. Variables read into a secret field are collected in `secretVars`.
 */
function substituteEnv(doc: Document, env: Record<string, string | undefined>, warnings: string[], secretVars: Set<string>): void {
  const { isScalar } = require("yaml") as typeof import("yaml");
  const visit = (node: unknown, path: string) => {
    if (isScalar(node)) {
      if (typeof node.value === "string" && node.value.includes("${")) node.value = expandRefs(node.value, path, env, warnings, secretVars);
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
  file: Omit<ConfigFile, "mcpServers"> & { mcpServers: Record<string, McpServerSpec> },
  ctx: { novaHome: string; file?: string; env: Record<string, string | undefined>; warnings: string[]; requested?: string; secretVars: Set<string> },
): Config {
  const providers: ProviderEntry[] = [];
  // every value a secret variable holds, at any length
  const secrets: string[] = [...ctx.secretVars].flatMap((name) => (ctx.env[name] ? [ctx.env[name]] : []));
  for (const [name, p] of Object.entries(file.providers)) {
    const apiKey = p.apiKey || undefined;
    if (apiKey) secrets.push(apiKey);
    // a literal header that is not a credential (a version, a flag) would redact ordinary words when short
    for (const [header, value] of Object.entries(p.headers ?? {})) if (value && (SECRET_HEADER.test(header) || value.length >= 8)) secrets.push(value);
    // a scripted provider's "endpoint" is its script file
    const baseUrl = p.script !== undefined ? pathToFileURL(resolve(ctx.file ? dirname(ctx.file) : process.cwd(), p.script)).href : p.baseUrl!.replace(/\/+$/, "");
    providers.push({
      name,
      api: p.api,
      baseUrl,
      auth: { apiKey, headers: p.headers },
      discover: p.discover ?? p.api === "ollama",
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
  for (const provider of providers) applyCosts(provider.models, file.costs);
  const scripted = [ctx.requested, file.defaultModel].some((named) => named?.startsWith("scripted/"));
  if (scripted && !providers.some((p) => p.name === "scripted")) providers.push(scriptedProvider());
  for (const server of Object.values(file.mcpServers)) secrets.push(...mcpSecrets(server));
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
    permissionPrompt: file.permissions.prompt,
    mcpPermissions: file.permissions.mcp,
    filePermissions: file.permissions.files,
    toolPermissions: file.permissions.tools,
    hooks: file.hooks,
    mcpServers: file.mcpServers,
    mcp: file.mcp,
    permissionMode: file.permissions.mode,
    compaction: file.compaction,
    retry: file.retry,
    stream: file.stream,
    session: file.session,
    agent: file.agent,
    costs: file.costs,
    limits: file.limits,
    structuredOutput: file.structuredOutput,
    cacheRetention: file.cacheRetention,
    sandbox: file.sandbox,
    checkpoints: file.checkpoints,
    secrets,
    toolEnv: { secretVars: [...ctx.secretVars], secretValues: secrets, pass: file.permissions.env.pass },
    env: ctx.env,
    warnings: ctx.warnings,
  };
}

/** Header values and secret-looking env values of an MCP server: tokens that must not be echoed. */
export function mcpSecrets(server: McpServerSpec): string[] {
  const headers = "headers" in server ? Object.values(server.headers ?? {}) : [];
  const env =
    "env" in server
      ? Object.entries(server.env ?? {})
          .filter(([k]) => /key|token|secret|password|auth/i.test(k))
          .map(([, v]) => v)
      : [];
  return [...headers, ...env].filter((v) => v.length >= 8);
}
