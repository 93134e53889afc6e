/**
 * The fixed command line of PROTOCOL.md §8. Hand-parsed: the surface is small
 * and every mistake must name the flag and exit 2 before anything starts.
 */
import { sandboxModes, thinkingLevels, type ThinkingLevel } from "../core/enums.ts";

export type Mode = "rpc" | "rpc-ui" | "acp";

export interface Args {
  mode: Mode;
  config?: string;
  provider?: string;
  model?: string;
  thinking?: ThinkingLevel;
  cwd?: string;
  sessionDir?: string;
  noSession: boolean;
  /** --no-mcp: no MCP server from any source is started */
  noMcp: boolean;
  systemPrompt?: string;
  appendSystemPrompt?: string;
  messageSnapshots: boolean;
  /** the OS sandbox's mode, over the config's sandbox.mode */
  sandbox?: (typeof sandboxModes)[number];
  action?: "version" | "help" | "print-schema";
}

export class UsageError extends Error {}

const valueFlags = {
  "--mode": "mode",
  "--config": "config",
  "--provider": "provider",
  "--model": "model",
  "--thinking": "thinking",
  "--cwd": "cwd",
  "--session-dir": "sessionDir",
  "--system-prompt": "systemPrompt",
  "--append-system-prompt": "appendSystemPrompt",
  "--sandbox": "sandbox",
} as const;

const modes: readonly Mode[] = ["rpc", "rpc-ui", "acp"];

export function parseArgs(argv: string[]): Args {
  const args: Args = { mode: "rpc", noSession: false, noMcp: false, messageSnapshots: false };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const eq = arg.startsWith("--") ? arg.indexOf("=") : -1;
    const flag = eq > 0 ? arg.slice(0, eq) : arg;
    if (flag in valueFlags) {
      const value = eq > 0 ? arg.slice(eq + 1) : argv[++i];
      if (value === undefined) throw new UsageError(`${flag} needs a value`);
      (args as unknown as Record<string, string>)[valueFlags[flag as keyof typeof valueFlags]] = value;
      continue;
    }
    if (eq > 0) throw new UsageError(`${flag} takes no value`);
    switch (arg) {
      case "--no-session":
        args.noSession = true;
        break;
      case "--no-mcp":
        args.noMcp = true;
        break;
      case "--message-snapshots":
        args.messageSnapshots = true;
        break;
      case "--version":
      case "-v":
        args.action = "version";
        break;
      case "--help":
      case "-h":
        args.action = "help";
        break;
      case "--print-schema":
        args.action = "print-schema";
        break;
      default:
        if (arg.startsWith("@")) throw new UsageError(`@file arguments are not accepted in RPC mode: ${arg}`);
        throw new UsageError(arg.startsWith("-") ? `unknown option: ${arg}` : `unexpected argument: ${arg}`);
    }
  }
  if (!modes.includes(args.mode)) {
    throw new UsageError(`--mode must be one of ${modes.join(", ")}, got "${args.mode}"`);
  }
  if (args.thinking !== undefined && !(thinkingLevels as readonly string[]).includes(args.thinking)) {
    throw new UsageError(`--thinking must be one of ${thinkingLevels.join(", ")}, got "${args.thinking}"`);
  }
  if (args.sandbox !== undefined && !(sandboxModes as readonly string[]).includes(args.sandbox)) {
    throw new UsageError(`--sandbox must be one of ${sandboxModes.join(", ")}, got "${args.sandbox}"`);
  }
  if (args.noSession && args.sessionDir) throw new UsageError("--no-session and --session-dir cannot be combined");
  return args;
}

export const helpText = `nova — a coding agent that speaks JSON lines over stdin/stdout

Usage:
  nova --mode rpc|rpc-ui|acp [options]
  nova --version | --help | --print-schema

Options:
  --mode MODE                 rpc (default), rpc-ui (the host answers UI requests), acp
  --config FILE               config file (default: $NOVA_HOME/config.yml)
  --model PROVIDER/ID         model to start with (or --provider P --model ID)
  --provider NAME             provider of --model
  --thinking LEVEL            off, minimal, low, medium, high, xhigh, max
  --cwd DIR                   working directory of the session (default: the current one)
  --session-dir DIR           where session files are kept
  --no-session                keep the session in memory only
  --no-mcp                    start no MCP server (config, RPC host or ACP editor)
  --system-prompt TEXT        replace the base system prompt
  --append-system-prompt TEXT append to the system prompt
  --sandbox MODE               run the model's commands in an OS sandbox: off, workspace-write, read-only
  --message-snapshots         repeat the whole partial message in every message_update (Pi's cost model)
  --print-schema              print the JSON Schema of every command and event
  --version, --help

Environment:
  NOVA_HOME (default ~/.nova), OPENAI_API_KEY, ANTHROPIC_API_KEY, GEMINI_API_KEY,
  OPENROUTER_API_KEY, OLLAMA_HOST
`;
