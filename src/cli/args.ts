/**
 * The command line: nova's fixed surface (PROTOCOL.md §8) plus the flags of
 * Pi's command line a host's launch line may carry (Pi 1.6.0 docs/cli.md).
 * Hand-parsed: the surface is small and every mistake must name the flag and
 * exit 2 before anything starts.
 */
import { permissionModes, permissionPrompts, sandboxModes, thinkingLevels, type PermissionMode, type PermissionPrompt, type ThinkingLevel } from "../core/enums.ts";

export type Mode = "rpc" | "rpc-ui" | "acp" | "json";

export interface Args extends PiArgs {
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
  /** repeatable; each is text or the path of a file */
  appendSystemPrompt: string[];
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
  "--permission-mode": "permissionMode",
  "--sandbox": "sandbox",
} as const;

const modes: readonly Mode[] = ["rpc", "rpc-ui", "acp", "json"];

export function parseArgs(argv: string[]): Args {
  const args: Args = { mode: "rpc", noSession: false, messageSnapshots: false, appendSystemPrompt: [], print: false, prompts: [], quiet: false, ...piDefaults() };
  let modeGiven = false;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === "--") {
      args.prompts.push(...argv.slice(i + 1));
      break;
    }
    const eq = arg.startsWith("--") ? arg.indexOf("=") : -1;
    const flag = eq > 0 ? arg.slice(0, eq) : arg;
    if (flag === "--mode") modeGiven = true;
    const inline = eq > 0 ? arg.slice(eq + 1) : undefined;
    const next = () => {
      const value = inline ?? argv[++i];
      if (value === undefined) throw new UsageError(`${flag} needs a value`);
      return value;
    };
    if (flag in valueFlags) {
      (args as unknown as Record<string, string>)[valueFlags[flag as keyof typeof valueFlags]] = next();
      continue;
    }
    if (flag === "--append-system-prompt") {
      args.appendSystemPrompt.push(next());
      continue;
    }
    if (parsePiFlag(flag, inline, next, args)) continue;
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
  checkPiArgs(args);
  return args;
}

// ----- Pi's command line -----

export interface PiArgs {
  /** --session <path|id>: open that session, or start one saved at that path */
  session?: string;
  /** -c/--continue: the newest session of the cwd */
  continue: boolean;
  /** --fork <path|id>: a copy of that session, continued as a new one */
  fork?: string;
  /** --session-id: the cwd's session with this id, created when there is none */
  sessionId?: string;
  /** -n/--name */
  name?: string;
  /** -t/--tools a,b: an allowlist (names, `*` patterns) or +name/-name changes */
  tools?: string[];
  /** -xt/--exclude-tools a,b */
  excludeTools?: string[];
  /** -nt/--no-tools */
  noTools: boolean;
  /** -nbt/--no-builtin-tools */
  noBuiltinTools: boolean;
  /** -nc/--no-context-files */
  noContextFiles: boolean;
  /** -ns/--no-skills */
  noSkills: boolean;
  /** --no-mcp: the off switch for MCP servers */
  noMcp: boolean;
  /** --api-key: for the chosen model's provider, this process only */
  apiKey?: string;
  /** --models a,b: the set cycle_model cycles */
  models?: string[];
  /** --permission-prompt: how a flagged bash command is asked about */
  permissionPrompt?: PermissionPrompt;
  /** Pi-only flags seen (accepted, no effect in nova); they make `ui` the default permission prompt */
  piOnlyFlags: string[];
}

function piDefaults(): PiArgs {
  return { continue: false, noTools: false, noBuiltinTools: false, noContextFiles: false, noSkills: false, noMcp: false, piOnlyFlags: [] };
}

type PiValueField = "session" | "fork" | "sessionId" | "name" | "apiKey" | "permissionPrompt";
type PiListField = "tools" | "excludeTools" | "models";
type PiSwitchField = "continue" | "noTools" | "noBuiltinTools" | "noContextFiles" | "noSkills" | "noMcp";

/** Pi's flags nova implements: flag → field. */
const piValues: Record<string, PiValueField> = {
  "--session": "session",
  "--fork": "fork",
  "--session-id": "sessionId",
  "--name": "name",
  "-n": "name",
  "--api-key": "apiKey",
  "--permission-prompt": "permissionPrompt",
};
const piLists: Record<string, PiListField> = {
  "--tools": "tools",
  "-t": "tools",
  "--exclude-tools": "excludeTools",
  "-xt": "excludeTools",
  "--models": "models",
};
const piSwitches: Record<string, PiSwitchField> = {
  "--continue": "continue",
  "-c": "continue",
  "--no-tools": "noTools",
  "-nt": "noTools",
  "--no-builtin-tools": "noBuiltinTools",
  "-nbt": "noBuiltinTools",
  "--no-context-files": "noContextFiles",
  "-nc": "noContextFiles",
  "--no-skills": "noSkills",
  "-ns": "noSkills",
  "--no-mcp": "noMcp",
};
/**
 * Pi-only flags: accepted so a Pi launch line works, with no effect, since
 * nova has no themes, extensions, prompt templates, terminal UI, project
 * trust or model catalog to refresh. true = the flag takes a value.
 */
const piOnly: Record<string, boolean> = {
  "--no-themes": false,
  "--theme": true,
  "--use-theme": true,
  "--no-extensions": false,
  "-ne": false,
  "--extension": true,
  "-e": true,
  "--no-prompt-templates": false,
  "-np": false,
  "--prompt-template": true,
  "--offline": false,
  "--verbose": false,
  "--approve": false,
  "-a": false,
  "--no-approve": false,
  "-na": false,
  "--tui-mode": true,
};

/** Consumes one of Pi's flags; false when `flag` is not one. */
function parsePiFlag(flag: string, inline: string | undefined, next: () => string, args: Args): boolean {
  if (flag === "--resume" || flag === "-r") {
    throw new UsageError(
      `${flag} opens Pi's interactive session picker, which nova does not have; use --continue for the newest session of this directory, or --session <path|id>`,
    );
  }
  const value = piValues[flag];
  if (value) {
    (args as unknown as Record<string, string>)[value] = next();
    return true;
  }
  const list = piLists[flag];
  if (list) {
    args[list] = splitList(next());
    return true;
  }
  if (flag in piSwitches || flag in piOnly) {
    const takesValue = piOnly[flag] === true;
    if (!takesValue && inline !== undefined) throw new UsageError(`${flag} takes no value`);
    if (takesValue) next();
    const key = piSwitches[flag];
    if (key) args[key] = true;
    else args.piOnlyFlags.push(flag);
    return true;
  }
  return false;
}

function splitList(value: string): string[] {
  return value
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
}

const SESSION_ID = /^[A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?$/;

function checkPiArgs(args: Args): void {
  if (args.permissionPrompt !== undefined && !permissionPrompts.includes(args.permissionPrompt)) {
    throw new UsageError(`--permission-prompt must be one of ${permissionPrompts.join(", ")}, got "${args.permissionPrompt}"`);
  }
  if (args.sessionId !== undefined && !SESSION_ID.test(args.sessionId)) {
    throw new UsageError(`--session-id must be letters, digits, '.', '_' or '-', starting and ending with a letter or digit, got "${args.sessionId}"`);
  }
  if (args.name !== undefined && !args.name.trim()) throw new UsageError("--name needs a non-empty value");
  const conflicts = (flag: string, others: [string, boolean][]) => {
    const set = others.filter(([, on]) => on).map(([name]) => name);
    if (set.length > 0) throw new UsageError(`${flag} cannot be combined with ${set.join(", ")}`);
  };
  if (args.fork !== undefined)
    conflicts("--fork", [
      ["--session", args.session !== undefined],
      ["--continue", args.continue],
      ["--no-session", args.noSession],
    ]);
  if (args.sessionId !== undefined)
    conflicts("--session-id", [
      ["--session", args.session !== undefined],
      ["--continue", args.continue],
    ]);
  if (args.session !== undefined)
    conflicts("--session", [
      ["--continue", args.continue],
      ["--no-session", args.noSession],
    ]);
  if (args.continue) conflicts("--continue", [["--no-session", args.noSession]]);
  const sessionFlag =
    args.session !== undefined ? "--session" : args.continue ? "--continue" : args.fork !== undefined ? "--fork" : args.sessionId !== undefined ? "--session-id" : undefined;
  if (args.mode === "acp" && sessionFlag) throw new UsageError(`${sessionFlag} does not apply to --mode acp (its client loads sessions with session/load)`);
}

/** -p and --mode json take prompts; the long-running modes take none. */
function checkOneShot(args: Args, modeGiven: boolean): void {
  if (args.permissionMode !== undefined && !(permissionModes as readonly string[]).includes(args.permissionMode)) {
    throw new UsageError(`--permission-mode must be one of ${permissionModes.join(", ")}, got "${args.permissionMode}"`);
  }
  if (args.print && modeGiven && args.mode !== "json") throw new UsageError(`-p/--print cannot be combined with --mode ${args.mode}`);
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
  nova --mode rpc --model scripted/demo                      a host's CI: no key, no network
  nova --print-schema > nova.schema.json                     JSON Schema 2020-12 of the protocol

Options:
  -p, --print                 run PROMPT (the words joined) with the tools in the cwd; stdout gets only
                              the final answer (terminal markdown on a TTY), stderr the progress
  -q, --quiet                 -p: no progress on stderr
  --permission-mode MODE      what a flagged command does: default (ask the host), bypass (run it;
                              deny rules still hold), dontAsk (deny it; the default of -p and json)
  --mode MODE                 rpc (default), rpc-ui (the host answers UI requests), acp, json
  --config FILE               config file (default: $NOVA_HOME/config.yml)
  --model PATTERN[:LEVEL]     model to start with: provider/id, or an id found across providers
  --provider NAME             provider of --model
  --thinking LEVEL            off, minimal, low, medium, high, xhigh, max
  --models A,B                the models cycle_model cycles (ids, provider/id, * patterns, :LEVEL)
  --api-key KEY               API key for the starting model's provider, this process only
  --cwd DIR                   working directory of the session (default: the current one)
  --session-dir DIR           where session files are kept (else $PI_CODING_AGENT_SESSION_DIR)
  --no-session                keep the session in memory only
  --session PATH|ID           open that session, or start a new one saved at PATH
  -c, --continue              continue the newest session of the working directory
  --fork PATH|ID              continue a copy of that session as a new session
  --session-id ID             the working directory's session with this id, created if missing
  -n, --name NAME             session display name
  -t, --tools A,B             only these tools (names or * patterns); +name/-name edits the default set
  -xt, --exclude-tools A,B    remove these tools (names or * patterns)
  -nt, --no-tools             no tools at all
  -nbt, --no-builtin-tools    none of nova's own tools (host tools stay)
  -nc, --no-context-files     do not read AGENTS.md / CLAUDE.md
  -ns, --no-skills            do not list skills in the system prompt
  --no-mcp                    start no MCP server (config, RPC host or ACP editor)
  --permission-prompt HOW     request (permission_request), ui (extension_ui_request confirm), allow, deny
  --system-prompt TEXT|FILE   replace the base system prompt
  --append-system-prompt TEXT|FILE  append to the system prompt (repeatable)
  --sandbox MODE               run the model's commands in an OS sandbox: off, workspace-write, read-only
  --message-snapshots         repeat the whole partial message in every message_update (Pi's cost model)
  --print-schema              print the protocol as one JSON Schema 2020-12 document
  --version, --help

Accepted for Pi launch lines, no effect: --no-themes, --theme X, --use-theme X,
  -ne/--no-extensions, -e/--extension X, -np/--no-prompt-templates, --prompt-template X,
  --offline, --verbose, -a/--approve, -na/--no-approve, --tui-mode X.
  -r/--resume is refused (nova has no session picker).

Exit codes (-p, json): 0 done, 1 the run failed or was aborted, 2 usage, 130 interrupted (Ctrl-C).
Docs: README.md (install, Troubleshooting), docs/rpc.md (protocol, versioning), docs/client.md
  (nova-agent/client, the typed TS client), examples/ (Python and Node hosts), docs/config.md,
  docs/print.md (-p and json), docs/scripted.md (the scripted model), docs/acp.md.

Environment:
  NOVA_HOME (default ~/.nova), NOVA_PERMISSION_PROMPT, PI_CODING_AGENT_SESSION_DIR,
  OPENAI_API_KEY, ANTHROPIC_API_KEY, GEMINI_API_KEY, OPENROUTER_API_KEY, OLLAMA_HOST
`;

/** What `nova` alone in a terminal prints instead of waiting for JSON lines. */
export const shortHelp = `nova is a coding agent for scripts and hosts. Try:

  nova -p "what is in this folder?" --model scripted/demo   (offline demo, no key needed)
  nova -p "your question"         with ANTHROPIC_API_KEY, OPENAI_API_KEY, GEMINI_API_KEY or OPENROUTER_API_KEY set
  nova --mode rpc                 JSON lines over stdin/stdout, for IDE plugins and scripts (docs/rpc.md)

nova --help lists every option; docs/print.md and docs/scripted.md tell more.
`;
