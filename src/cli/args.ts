/**
 * The fixed command line of PROTOCOL.md §8. Hand-parsed: the surface is small
 * and every mistake must name the flag and exit 2 before anything starts.
 */
import { permissionModes, sandboxModes, thinkingLevels, type PermissionMode, type ThinkingLevel } from "../core/enums.ts";

export type Mode = "rpc" | "rpc-ui" | "acp" | "json";

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
  // ----- one-shot front ends (-p, --mode json) -----
  /** -p / --print: run the prompt, print the final answer, exit */
  print: boolean;
  /** the words after the options: -p joins them into one prompt, --mode json runs each */
  prompts: string[];
  /** -p: no status on stderr */
  quiet: boolean;
  permissionMode?: PermissionMode;
  /** -c / --continue: the newest session of the cwd */
  continue: boolean;
  /** --session PATH|ID */
  session?: string;
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
  "--permission-mode": "permissionMode",
  "--session": "session",
  "--sandbox": "sandbox",
} as const;

const modes: readonly Mode[] = ["rpc", "rpc-ui", "acp", "json"];

export function parseArgs(argv: string[]): Args {
  const args: Args = { mode: "rpc", noSession: false, noMcp: false, messageSnapshots: false, print: false, prompts: [], quiet: false, continue: false };
  let modeGiven = false;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === "--") {
      args.prompts.push(...argv.slice(i + 1));
      break;
    }
    const eq = arg.startsWith("--") ? arg.indexOf("=") : -1;
    const flag = eq > 0 ? arg.slice(0, eq) : arg;
    if (flag === "--mode") modeGiven = true;
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
      case "-p":
      case "--print":
        args.print = true;
        break;
      case "--quiet":
      case "-q":
        args.quiet = true;
        break;
      case "--continue":
      case "-c":
        args.continue = true;
        break;
      default:
        if (arg.startsWith("@")) throw new UsageError(`@file arguments are not accepted in RPC mode: ${arg}`);
        if (arg.startsWith("-") && arg !== "-") throw new UsageError(`unknown option: ${arg}`);
        args.prompts.push(arg);
    }
  }
  checkOneShot(args, modeGiven);
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

/** -p and --mode json take prompts; the long-running modes take none. */
function checkOneShot(args: Args, modeGiven: boolean): void {
  if (args.permissionMode !== undefined && !(permissionModes as readonly string[]).includes(args.permissionMode)) {
    throw new UsageError(`--permission-mode must be one of ${permissionModes.join(", ")}, got "${args.permissionMode}"`);
  }
  if (args.print && modeGiven && args.mode !== "json") throw new UsageError(`-p/--print cannot be combined with --mode ${args.mode}`);
  if (args.continue && args.session !== undefined) throw new UsageError("--continue and --session cannot be combined");
  if (args.noSession && (args.continue || args.session !== undefined)) throw new UsageError(`--no-session cannot be combined with ${args.continue ? "--continue" : "--session"}`);
  if (args.mode === "acp" && (args.continue || args.session !== undefined)) throw new UsageError("--continue and --session do not apply to --mode acp (its client loads sessions with session/load)");
  if (args.print || args.mode === "json") return;
  if (args.quiet) throw new UsageError("--quiet applies to -p/--print only");
  const first = args.prompts[0];
  if (first !== undefined) throw new UsageError(`unexpected argument: ${first} (to run a prompt: nova -p ${JSON.stringify(first)})`);
}

export const helpText = `nova — a coding agent that speaks JSON lines over stdin/stdout

Usage:
  nova -p [options] PROMPT...        run one prompt, print the answer, exit
  nova --mode json [options] PROMPT...  run each prompt, print its events as JSON lines
  nova --mode rpc|rpc-ui|acp [options]  serve a host over stdin/stdout
  nova --version | --help | --print-schema

Examples:
  nova -p "what is in this folder?" --model scripted/demo   offline demo, no key needed
  ANTHROPIC_API_KEY=… nova -p "explain src/main.ts"
  git diff | nova -p "review this change"                    piped stdin comes first
  nova --mode json "list the tests" > events.jsonl
  nova --mode rpc                                            for IDE plugins and scripts

Options:
  -p, --print                 run PROMPT (the words joined) with the tools in the cwd; stdout gets only
                              the final answer (terminal markdown on a TTY), stderr the progress
  -q, --quiet                 -p: no progress on stderr
  --permission-mode MODE      what a flagged command does: default (ask the host), bypass (run it;
                              deny rules still hold), dontAsk (deny it; the default of -p and json)
  -c, --continue              go on with the newest session of the cwd
  --session PATH|ID           go on with that session
  --mode MODE                 rpc (default), rpc-ui (the host answers UI requests), acp, json
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

Exit codes (-p, json): 0 done, 1 the run failed or was aborted, 2 usage, 130 interrupted (Ctrl-C).
Docs: docs/rpc.md (protocol), docs/print.md (-p and json), docs/scripted.md (the scripted model).

Environment:
  NOVA_HOME (default ~/.nova), OPENAI_API_KEY, ANTHROPIC_API_KEY, GEMINI_API_KEY,
  OPENROUTER_API_KEY, OLLAMA_HOST
`;

/** What `nova` alone in a terminal prints instead of waiting for JSON lines. */
export const shortHelp = `nova is a coding agent for scripts and hosts. Try:

  nova -p "what is in this folder?" --model scripted/demo   (offline demo, no key needed)
  nova -p "your question"         with ANTHROPIC_API_KEY, OPENAI_API_KEY, GEMINI_API_KEY or OPENROUTER_API_KEY set
  nova --mode rpc                 JSON lines over stdin/stdout, for IDE plugins and scripts (docs/rpc.md)

nova --help lists every option; docs/print.md and docs/scripted.md tell more.
`;
