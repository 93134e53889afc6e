/**
 * From the parsed command line, the config and the environment to what a
 * mode starts with: the model (a bare id found across providers, a :level
 * suffix), the --models scope, a --api-key for the chosen provider, system
 * prompt text read from files, the tool selection, the permission prompt
 * and where sessions live. Every mistake is a UsageError (exit 2).
 */
import { existsSync, readFileSync, statSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { sessionDirFor } from "../session/paths.ts";
import { sessionPathArg, type StartWhere } from "../session/start.ts";
import type { Config } from "../config/load.ts";
import { missingKey } from "../config/env-providers.ts";
import type { Model } from "../providers/types.ts";
import { permissionPrompts, type PermissionPrompt, type ThinkingLevel } from "../core/enums.ts";
import type { AgentSession, SessionOptions } from "./session.ts";
import type { SessionStore } from "../session/store.ts";
import { isEditList, type ToolSelection } from "./tool-selection.ts";
import { allToolsForSchemas } from "../tools/index.ts";
import { UsageError, type Args } from "../cli/args.ts";
import { resolveModel, resolveScope, type ModelChoice } from "../cli/models.ts";

type Env = Record<string, string | undefined>;

export function launchOptions(args: Args, config: Config, cwd: string, env: Env, warn: (message: string) => void): SessionOptions {
  const models = config.providers.flatMap((p) => p.models);
  const scope = args.models ? resolveScope(args.models, models, warn) : undefined;
  let model: ModelChoice | undefined = args.model ? chooseModel(config, args.model, args.provider, models) : undefined;
  if (args.provider && !args.model) throw new UsageError(`--provider needs --model (for example: --provider ${args.provider} --model <id>)`);
  model ??= scope?.[0];
  const thinking: ThinkingLevel | undefined = args.thinking ?? model?.thinking;
  if (args.apiKey !== undefined) useApiKey(config, args.apiKey, model);
  return {
    config,
    cwd,
    model: model && { provider: model.provider, id: model.id },
    thinking,
    sessionDir: sessionDir(args, cwd, env),
    noSession: args.noSession,
    systemPrompt: args.systemPrompt === undefined ? undefined : textOrFile(args.systemPrompt, cwd),
    appendSystemPrompt: args.appendSystemPrompt.length > 0 ? args.appendSystemPrompt.map((a) => textOrFile(a, cwd)).join("\n\n") : undefined,
    modelScope: scope && scope.length > 0 ? scope : undefined,
    toolSelection: toolSelection(args, warn),
    noContextFiles: args.noContextFiles,
    noSkills: args.noSkills,
    noMcp: args.noMcp,
    permissionPrompt: permissionPrompt(args, config, env),
  };
}

/** --model's choice; naming a known provider that has no key says how to give it one. */
function chooseModel(config: Config, raw: string, provider: string | undefined, models: Model[]): ModelChoice {
  try {
    return resolveModel(raw, provider, models);
  } catch (error) {
    const slash = raw.indexOf("/");
    const named = provider ?? (slash > 0 ? raw.slice(0, slash) : undefined);
    const missing = error instanceof UsageError && named !== undefined ? missingKey(config.providers, named) : undefined;
    if (missing) throw new UsageError(missing);
    throw error;
  }
}

/** The key is held for this process only: a secret redacted everywhere, never saved. */
function useApiKey(config: Config, key: string, model: ModelChoice | undefined): void {
  if (!model) throw new UsageError("--api-key needs a model chosen with --model or --models");
  const provider = config.providers.find((p) => p.name === model.provider);
  if (!provider) throw new UsageError(`--api-key: provider ${model.provider} is not configured`);
  provider.auth = { ...provider.auth, apiKey: key };
  config.secrets.push(key);
}

/**
 * --session-dir, else Pi's PI_CODING_AGENT_SESSION_DIR, else (as Pi does) the
 * folder of a --session file, where new_session then starts its sessions.
 */
function sessionDir(args: Args, cwd: string, env: Env): string | undefined {
  if (args.sessionDir) return resolve(args.sessionDir);
  if (args.noSession) return undefined;
  const fromPi = env.PI_CODING_AGENT_SESSION_DIR;
  if (fromPi) return resolve(fromPi.replace(/^~(?=$|\/)/, env.HOME ?? "~"));
  const file = args.session === undefined ? undefined : sessionPathArg(args.session, cwd);
  return file ? dirname(file) : undefined;
}

/** Pi's rule: a value naming an existing file means the file's text. */
function textOrFile(value: string, cwd: string): string {
  const path = resolve(cwd, value);
  try {
    if (value.length < 4096 && existsSync(path) && statSync(path).isFile()) return readFileSync(path, "utf8");
  } catch {
    // unreadable: the value is the text itself
  }
  return value;
}

function toolSelection(args: Args, warn: (message: string) => void): ToolSelection | undefined {
  if (!args.tools && !args.excludeTools && !args.noTools && !args.noBuiltinTools) return undefined;
  const list = args.tools;
  if (list && !isEditList(list) && list.some((e) => e.startsWith("+") || e.startsWith("-"))) {
    throw new UsageError(`--tools takes either names and patterns or only +name/-name entries, not both: ${list.join(",")}`);
  }
  const known = allToolsForSchemas().map((t) => t.name);
  for (const entry of list ?? []) {
    const name = entry.replace(/^[+-]/, "");
    if (!name.includes("*") && !known.includes(name)) warn(`--tools: nova has no tool named "${name}" (it has ${known.join(", ")})`);
  }
  return { tools: list, exclude: args.excludeTools, noTools: args.noTools, noBuiltin: args.noBuiltinTools };
}

/**
 * --permission-prompt, then NOVA_PERMISSION_PROMPT, then permissions.prompt in
 * the config; with none of them, a launch line carrying a Pi-only flag comes
 * from a Pi host, which answers extension_ui_request but not permission_request.
 */
function permissionPrompt(args: Args, config: Config, env: Env): PermissionPrompt {
  const fromEnv = env.NOVA_PERMISSION_PROMPT;
  if (fromEnv !== undefined && fromEnv !== "" && !(permissionPrompts as readonly string[]).includes(fromEnv)) {
    throw new UsageError(`NOVA_PERMISSION_PROMPT must be one of ${permissionPrompts.join(", ")}, got "${fromEnv}"`);
  }
  return args.permissionPrompt ?? ((fromEnv as PermissionPrompt | undefined) || undefined) ?? config.permissionPrompt ?? (args.piOnlyFlags.length > 0 ? "ui" : "request");
}

/** Where a session named on the command line is looked for and created. */
export function startWhere(options: SessionOptions): StartWhere {
  const root = join(options.config.novaHome, "sessions");
  return { cwd: options.cwd, dir: options.sessionDir ?? sessionDirFor(options.config.novaHome, options.cwd), sessionsRoot: options.sessionDir ? undefined : root };
}

/** The session the command line names (--session, --continue, --fork, --session-id) and its --name. */
export interface StartSession {
  store?: SessionStore;
  name?: string;
}

/** A front end's first conversation continues in that session; a model chosen on the command line wins over the file's. */
export function startIn(session: AgentSession, start: StartSession | undefined, keepModel: boolean): void {
  if (start?.store) session.files.adoptStore(start.store, keepModel);
  if (start?.name && session.store.name !== start.name.trim()) session.setSessionName(start.name);
}
