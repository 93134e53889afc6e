#!/usr/bin/env bun
/** nova: command line → config → one mode. */
import { join, resolve } from "node:path";
import { existsSync, statSync } from "node:fs";
import { helpText, parseArgs, shortHelp, UsageError, type Args } from "./cli/args.ts";
import { versionLine } from "./cli/version.ts";
import { ConfigError, loadConfig, type Config } from "./config/load.ts";
import { setToolEnvPolicy } from "./tools/environment.ts";
import { claimStdout } from "./wire/writer.ts";
import { parseModelRef } from "./core/model-ref.ts";
import type { PermissionMode } from "./core/enums.ts";

async function main(argv: string[]): Promise<number> {
  // a person who typed `nova` alone gets pointed somewhere instead of a silent wait for JSON lines
  if (argv.length === 0 && process.stdin.isTTY) return print(shortHelp);
  let args: Args;
  try {
    args = parseArgs(argv);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    process.stderr.write(`nova: ${error.message}\nRun 'nova --help' for usage.\n`);
    return 2;
  }
  if (args.action === "version") return print(versionLine() + "\n");
  if (args.action === "help") return print(helpText);
  if (args.action === "print-schema") {
    const { printSchema } = await import("./rpc/print-schema.ts");
    return print(printSchema());
  }

  let config: Config;
  try {
    const requested = modelChoice(args);
    config = loadConfig({ configFile: args.config, env: process.env, requested: requested && `${requested.provider}/${requested.id}` });
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    process.stderr.write(`nova: ${error.message}\n`);
    return 2;
  }
  for (const warning of config.warnings) process.stderr.write(`nova: warning: ${warning}\n`);
  setToolEnvPolicy(config.toolEnv);

  const cwd = resolve(args.cwd ?? process.cwd());
  if (!isDirectory(cwd)) {
    process.stderr.write(`nova: --cwd ${cwd} is not a directory\n`);
    return 2;
  }
  const model = modelChoice(args);
  if (model && !config.providers.some((p) => p.name === model.provider && p.models.some((m) => m.id === model.id))) {
    process.stderr.write(`nova: Model not found: ${model.provider}/${model.id}\n`);
    return 2;
  }

  if (args.sandbox) config.sandbox = { ...config.sandbox, mode: args.sandbox };
  let sandbox: import("./sandbox/index.ts").Sandbox | undefined;
  if (config.sandbox.mode !== "off") {
    // loaded only when asked for: a start without the sandbox pays nothing for it
    const { prepareSandbox, SandboxUnavailableError } = await import("./sandbox/index.ts");
    try {
      sandbox = prepareSandbox(config.sandbox, { novaHome: config.novaHome, home: process.env.HOME, configFile: config.file });
    } catch (error) {
      if (!(error instanceof SandboxUnavailableError)) throw error;
      process.stderr.write(`nova: ${error.message}\n`);
      return 1;
    }
    if (sandbox.status.warning) process.stderr.write(`nova: warning: ${sandbox.status.warning}\n`);
  }

  const oneShot = args.print || args.mode === "json";
  const options = {
    config,
    cwd,
    mode: args.mode === "json" ? ("rpc" as const) : args.mode,
    model,
    thinking: args.thinking,
    sessionDir: args.sessionDir ? resolve(args.sessionDir) : undefined,
    noSession: args.noSession,
    systemPrompt: args.systemPrompt,
    appendSystemPrompt: args.appendSystemPrompt,
    sandbox,
    permissionMode: oneShot ? oneShotPermissions(args.permissionMode ?? config.permissionMode) : args.permissionMode,
  };
  pruneCheckpointsLater(config);
  const resume = args.continue ? { continue: true as const } : args.session !== undefined ? { session: args.session } : undefined;
  if (oneShot) {
    const { runOneShot } = await import("./print/mode.ts");
    return runOneShot(options, { json: args.mode === "json", prompts: args.prompts, quiet: args.quiet, resume, noMcp: args.noMcp });
  }
  const writer = claimStdout();
  if (args.mode === "acp") {
    const { runAcpMode } = await import("./acp/mode.ts");
    return runAcpMode(options, writer, { noMcp: args.noMcp });
  }
  const { runRpcMode } = await import("./rpc/mode.ts");
  return runRpcMode(options, writer, { messageSnapshots: args.messageSnapshots, resume, noMcp: args.noMcp });
}

/** Retention runs once a second after start, off the path to `ready`, and only where checkpoints were ever kept. */
function pruneCheckpointsLater(config: Config): void {
  if (!config.checkpoints.enabled || !existsSync(join(config.novaHome, "checkpoints"))) return;
  const timer = setTimeout(() => {
    import("./checkpoints/prune.ts")
      .then(({ pruneCheckpoints }) => pruneCheckpoints(config.novaHome, config.checkpoints))
      .catch((error) => process.stderr.write(`nova: checkpoint pruning failed: ${(error as Error).message}\n`));
  }, 1000);
  timer.unref();
}

function modelChoice(args: Args): { provider: string; id: string } | undefined {
  if (!args.model) return undefined;
  if (args.provider) return { provider: args.provider, id: args.model };
  return parseModelRef(args.model);
}

/** Nobody answers a question in -p or json mode: what would ask is denied (bypass stays bypass). */
function oneShotPermissions(mode: PermissionMode): PermissionMode {
  return mode === "default" ? "dontAsk" : mode;
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/** Waits until the text has left the process: exiting earlier would cut a long write to a pipe. */
async function print(text: string): Promise<number> {
  await new Promise<void>((resolve) => process.stdout.write(text, () => resolve()));
  return 0;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error) => {
    process.stderr.write(`nova: fatal: ${(error as Error)?.stack ?? String(error)}\n`);
    process.exit(1);
  },
);
