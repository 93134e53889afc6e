#!/usr/bin/env bun
/** nova: command line → config → one mode. */
import { join, resolve } from "node:path";
import { existsSync, statSync } from "node:fs";
import { helpText, parseArgs, shortHelp, UsageError, type Args } from "./cli/args.ts";
import { versionLine } from "./cli/version.ts";
import { ConfigError, loadConfig, type Config } from "./config/load.ts";
import { setToolEnvPolicy } from "./tools/environment.ts";
import { claimStdout } from "./wire/writer.ts";
import type { SessionStore } from "./session/store.ts";
import type { SessionOptions } from "./agent/session.ts";
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
    const requested = args.model && (args.provider ? `${args.provider}/${args.model}` : args.model);
    config = loadConfig({ configFile: args.config, env: process.env, requested });
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
  if (config.providers.some((p) => p.discover)) {
    const discovery = await import("./config/discovery.ts");
    // a server that lists its models may have the one asked for: use it now, details come with the list
    if (args.model) discovery.provisionRequested(config, args.model, args.provider);
    // in the background: ready never waits for a server to list its models
    setImmediate(() => void discovery.discoverModels(config, (line) => process.stderr.write(`nova: warning: ${line}\n`)));
  }
  const warn = (message: string) => process.stderr.write(`nova: warning: ${message}\n`);
  const [{ launchOptions, startWhere }, { hasStartSpec, openStartSession, StartError }] = await Promise.all([import("./agent/launch.ts"), import("./session/start.ts")]);
  let options: SessionOptions;
  let start: SessionStore | undefined;
  try {
    options = launchOptions(args, config, cwd, process.env, warn);
    if (hasStartSpec(args)) start = await openStartSession(args, startWhere(options), warn);
  } catch (error) {
    if (!(error instanceof UsageError) && !(error instanceof StartError)) throw error;
    process.stderr.write(`nova: ${error.message}\n`);
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
  options.sandbox = sandbox;
  options.permissionMode = oneShot ? oneShotPermissions(args.permissionMode ?? config.permissionMode) : args.permissionMode;
  pruneCheckpointsLater(config);
  if (oneShot) {
    const { runOneShot } = await import("./print/mode.ts");
    return runOneShot(options, {
      json: args.mode === "json",
      prompts: args.prompts,
      quiet: args.quiet,
      start: { store: start, name: args.name },
      noMcp: args.noMcp,
      outputSchema: args.outputSchema,
      limits: { maxTurns: args.maxTurns, maxCostUsd: args.maxBudgetUsd },
    });
  }
  const writer = claimStdout();
  if (args.mode === "acp") {
    const { runAcpMode } = await import("./acp/mode.ts");
    return runAcpMode(options, writer, { noMcp: args.noMcp });
  }
  const { runRpcMode } = await import("./rpc/mode.ts");
  return runRpcMode(options, writer, { messageSnapshots: args.messageSnapshots, start: { store: start, name: args.name }, noMcp: args.noMcp, ui: args.mode === "rpc-ui" });
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
