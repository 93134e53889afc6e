/**
 * The agents compared by `bench:peers`: nova (compiled), Pi 0.73 on Node (how
 * its RpcClient runs it) and on Bun, oh-my-pi (Bun only), Pi 1.6 (on Bun: it
 * asks for node >= 22.19), and the headless modes of Claude Code, Codex,
 * Gemini CLI and opencode. The peers are installed from the npm registry
 * into .bench-tmp/peers, never into nova's dependencies; each run gets its
 * own scratch home whose config names the same local scripted provider, in
 * the wire format that agent speaks, with telemetry and update checks off.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { NOVA, TMP } from "../lib.ts";

export const PI_VERSION = "0.73.1";
/** 18.3.4 is the newest tag, but its own 18.3.4 dependencies are not on the registry; 18.2.3 is the newest that installs. */
export const OMP_VERSION = "18.2.3";
export const PI16_VERSION = "1.6.0";
export const CLAUDE_VERSION = "2.1.332";
export const CODEX_VERSION = "0.171.0";
export const GEMINI_VERSION = "0.61.0";
export const OPENCODE_VERSION = "1.18.33";

const PEERS = join(TMP, "peers");
const MODULES = join(PEERS, "node_modules");
const PI_CLI = join(MODULES, "@mariozechner/pi-coding-agent/dist/cli.js");
const OMP_CLI = join(MODULES, "@oh-my-pi/pi-coding-agent/dist/cli.js");
const PI16_CLI = join(MODULES, "@earendil-works/pi-coding-agent/dist/cli.js");
/** The launchers' native binaries come as optional dependencies; Bun runs no install script, so they are called directly. */
const CLAUDE_BIN = join(MODULES, "@anthropic-ai/claude-code-linux-x64/claude");
const CODEX_BIN = join(MODULES, "@openai/codex-linux-x64/vendor/x86_64-unknown-linux-musl/bin/codex");
const GEMINI_CLI = join(MODULES, "@google/gemini-cli/bundle/gemini.js");
const OPENCODE_BIN = join(MODULES, "opencode-linux-x64/bin/opencode");

/** How the bench talks to an agent: Pi's RPC, Claude Code's stream-json, Codex's app-server, or ACP. */
export type Protocol = "pi" | "claude" | "codex" | "acp";

/** One tool call the scripted model makes. */
export interface Call {
  name: string;
  args: Record<string, unknown>;
}

/** How an agent's tools spell a read, a replacement and a shell command; `file` is absolute. */
export interface Tools {
  read(file: string): Call;
  edit(file: string, oldText: string, newText: string): Call;
  bash(command: string): Call;
}

export interface Launch {
  cmd: string[];
  env: Record<string, string>;
  cwd: string;
  /** the scratch home made for this run, removed once the process has stopped */
  home?: string;
}

export interface Agent {
  name: string;
  version: string;
  protocol: Protocol;
  /** argv, environment and a fresh scratch project folder of one headless process pointed at the provider */
  command(providerUrl: string): Launch;
  tools: Tools;
}

const installs: Record<string, string> = {
  "@mariozechner/pi-coding-agent": PI_VERSION,
  "@oh-my-pi/pi-coding-agent": OMP_VERSION,
  "@earendil-works/pi-coding-agent": PI16_VERSION,
  "@anthropic-ai/claude-code": CLAUDE_VERSION,
  "@openai/codex": CODEX_VERSION,
  "@google/gemini-cli": GEMINI_VERSION,
  "opencode-ai": OPENCODE_VERSION,
};

export function installPeers(): void {
  mkdirSync(PEERS, { recursive: true });
  const manifest = { name: "nova-bench-peers", private: true, dependencies: installs };
  writeFileSync(join(PEERS, "package.json"), JSON.stringify(manifest, null, 2));
  const install = Bun.spawnSync(["bun", "install"], { cwd: PEERS, stdout: "ignore", stderr: "inherit" });
  const missing = [PI_CLI, OMP_CLI, PI16_CLI, CLAUDE_BIN, CODEX_BIN, GEMINI_CLI, OPENCODE_BIN].filter((f) => !existsSync(f));
  if (!install.success || missing.length > 0) throw new Error(`installing the peers into ${PEERS} failed${missing.length ? `: no ${missing.join(", ")}` : ""}`);
}

/** The installed version of a peer package, as its package.json says. */
export function installed(name: string): string {
  return JSON.parse(readFileSync(join(MODULES, name, "package.json"), "utf8")).version;
}

export function nodeVersion(): string {
  return Bun.spawnSync(["node", "--version"]).stdout.toString().trim();
}

function scratch(prefix: string): string {
  return mkdtempSync(join(tmpdir(), `peers-${prefix.replace(/\W+/g, "-")}-`));
}

const model = { id: "m", contextWindow: 200000, maxTokens: 8192 };
const baseEnv = (home: string) => ({ PATH: process.env.PATH ?? "", HOME: home, TMPDIR: process.env.TMPDIR ?? tmpdir() });

/** A project folder inside the scratch home (oh-my-pi does not work in $HOME itself). */
function project(home: string): string {
  const cwd = join(home, "project");
  mkdirSync(cwd);
  return cwd;
}

/** Pi's tool names and arguments (nova's are the same). */
const piTools: Tools = {
  read: (path) => ({ name: "read", args: { path } }),
  edit: (path, oldText, newText) => ({ name: "edit", args: { path, oldText, newText } }),
  bash: (command) => ({ name: "bash", args: { command } }),
};

export const nova: Agent = {
  name: "nova",
  version: "dist/nova",
  protocol: "pi",
  command(providerUrl) {
    const home = scratch("nova");
    const config = {
      defaultModel: "bench/m",
      providers: { bench: { api: "openai-chat", baseUrl: `${providerUrl}/v1`, apiKey: "sk-bench", models: [model] } },
      retry: { enabled: false },
    };
    writeFileSync(join(home, "config.yml"), JSON.stringify(config));
    return { cmd: [NOVA, "--mode", "rpc", "--no-session"], env: { ...baseEnv(home), NOVA_HOME: home }, cwd: project(home), home };
  },
  tools: piTools,
};

/** Pi and oh-my-pi read custom providers from PI_CODING_AGENT_DIR (models.json / models.yml). */
function piFamily(name: string, version: string, runtime: string, cli: string, modelsFile: string, env: Record<string, string>, tools: Tools): Agent {
  return {
    name,
    version,
    protocol: "pi",
    command(providerUrl) {
      const dir = scratch(name);
      const provider = { baseUrl: `${providerUrl}/v1`, api: "openai-completions", apiKey: "sk-bench", models: [model] };
      writeFileSync(join(dir, modelsFile), JSON.stringify({ providers: { bench: provider } }));
      return {
        cmd: [runtime, cli, "--mode", "rpc", "--provider", "bench", "--model", "m", "--no-session"],
        env: { ...baseEnv(dir), PI_CODING_AGENT_DIR: dir, PI_OFFLINE: "1", PI_SKIP_VERSION_CHECK: "1", ...env },
        cwd: project(dir),
        home: dir,
      };
    },
    tools,
  };
}

export const piNode = piFamily("pi (node)", PI_VERSION, "node", PI_CLI, "models.json", {}, piTools);
export const piBun = piFamily("pi (bun)", PI_VERSION, "bun", PI_CLI, "models.json", {}, piTools);
/** omp's default edit tool speaks hashline; PI_EDIT_VARIANT=replace gives a plain replace with its own argument names. */
export const omp = piFamily(
  "omp",
  OMP_VERSION,
  "bun",
  OMP_CLI,
  "models.yml",
  { PI_EDIT_VARIANT: "replace" },
  {
    ...piTools,
    edit: (path, oldText, newText) => ({ name: "edit", args: { path, old_string: oldText, new_string: newText } }),
  },
);
/** Pi 1.6 needs node >= 22.19 (this machine has node 20): run on Bun, its install telemetry off too. */
export const pi16 = piFamily("pi 1.6 (bun)", PI16_VERSION, "bun", PI16_CLI, "models.json", { PI_TELEMETRY: "0" }, piTools);

/**
 * Claude Code's headless mode: `-p` with stream-json both ways, partial
 * messages on (one stream_event line per delta), tools unasked
 * (bypassPermissions, which wants IS_SANDBOX=1 as root), no session file, no
 * telemetry, error reports, update checks or other traffic beyond the model.
 */
export const claude: Agent = {
  name: "claude",
  version: CLAUDE_VERSION,
  protocol: "claude",
  command(providerUrl) {
    const home = scratch("claude");
    return {
      cmd: [
        CLAUDE_BIN,
        "-p",
        "--input-format",
        "stream-json",
        "--output-format",
        "stream-json",
        "--verbose",
        "--include-partial-messages",
        "--model",
        "claude-sonnet-4-5",
        "--permission-mode",
        "bypassPermissions",
        "--no-session-persistence",
      ],
      env: {
        ...baseEnv(home),
        CLAUDE_CONFIG_DIR: join(home, ".claude"),
        ANTHROPIC_BASE_URL: providerUrl,
        ANTHROPIC_API_KEY: "sk-bench",
        IS_SANDBOX: "1",
        DISABLE_TELEMETRY: "1",
        DISABLE_AUTOUPDATER: "1",
        DISABLE_ERROR_REPORTING: "1",
        CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
      },
      cwd: project(home),
      home,
    };
  },
  tools: {
    read: (file_path) => ({ name: "Read", args: { file_path } }),
    edit: (file_path, old_string, new_string) => ({ name: "Edit", args: { file_path, old_string, new_string } }),
    bash: (command) => ({ name: "Bash", args: { command } }),
  },
};

/**
 * Codex's `app-server` (JSON-RPC lines on stdio), with a custom model
 * provider on the Responses API in CODEX_HOME/config.toml; no retries, no
 * analytics, feedback or update check. With an unknown model it offers one
 * shell tool, `exec_command`, so the tool loop reads, edits (sed) and counts
 * through it.
 */
export const codex: Agent = {
  name: "codex",
  version: CODEX_VERSION,
  protocol: "codex",
  command(providerUrl) {
    const home = scratch("codex");
    const codexHome = join(home, ".codex");
    mkdirSync(codexHome);
    const config = [
      'model = "m"',
      'model_provider = "bench"',
      "check_for_update_on_startup = false",
      "[model_providers.bench]",
      'name = "bench"',
      `base_url = "${providerUrl}/v1"`,
      'wire_api = "responses"',
      'env_key = "BENCH_API_KEY"',
      "request_max_retries = 0",
      "stream_max_retries = 0",
      "[analytics]",
      "enabled = false",
      "[feedback]",
      "enabled = false",
    ];
    writeFileSync(join(codexHome, "config.toml"), `${config.join("\n")}\n`);
    return { cmd: [CODEX_BIN, "app-server"], env: { ...baseEnv(home), CODEX_HOME: codexHome, BENCH_API_KEY: "sk-bench" }, cwd: project(home), home };
  },
  tools: {
    read: (file) => ({ name: "exec_command", args: { cmd: `cat ${file}` } }),
    edit: (file, oldText, newText) => ({ name: "exec_command", args: { cmd: `sed -i 's/^${oldText}$/${newText}/' ${file}` } }),
    bash: (cmd) => ({ name: "exec_command", args: { cmd } }),
  },
};

/**
 * Gemini CLI in ACP mode (`--acp`) on Node, its Gemini API base URL
 * pointed at the provider (GOOGLE_GEMINI_BASE_URL with an API key), no
 * relaunch into a child process, the scratch project trusted (its yolo mode
 * needs it), usage statistics, telemetry and auto-update off, loop detection
 * off (it would ask the model on the side).
 */
export const gemini: Agent = {
  name: "gemini",
  version: GEMINI_VERSION,
  protocol: "acp",
  command(providerUrl) {
    const home = scratch("gemini");
    mkdirSync(join(home, ".gemini"));
    const settings = {
      general: { enableAutoUpdate: false, enableAutoUpdateNotification: false },
      privacy: { usageStatisticsEnabled: false },
      telemetry: { enabled: false },
      security: { auth: { selectedType: "gemini-api-key" } },
      model: { disableLoopDetection: true },
    };
    writeFileSync(join(home, ".gemini/settings.json"), JSON.stringify(settings));
    return {
      cmd: ["node", GEMINI_CLI, "--acp", "--model", "gemini-2.5-flash"],
      env: {
        ...baseEnv(home),
        GEMINI_API_KEY: "sk-bench",
        GOOGLE_GEMINI_BASE_URL: providerUrl,
        GEMINI_TELEMETRY_ENABLED: "false",
        GEMINI_CLI_NO_RELAUNCH: "true",
        GEMINI_CLI_TRUST_WORKSPACE: "true",
      },
      cwd: project(home),
      home,
    };
  },
  tools: {
    read: (file_path) => ({ name: "read_file", args: { file_path } }),
    edit: (file_path, old_string, new_string) => ({ name: "replace", args: { file_path, old_string, new_string, instruction: "bump the count" } }),
    bash: (command) => ({ name: "run_shell_command", args: { command } }),
  },
};

/**
 * opencode's `acp` command with an openai-compatible provider in
 * OPENCODE_CONFIG_CONTENT, every tool allowed, no model catalogue fetch, no
 * auto-update, LSP download, sharing, default plugins or Claude Code files.
 * It names the session on the side (its small model is the same provider).
 */
export const opencode: Agent = {
  name: "opencode",
  version: OPENCODE_VERSION,
  protocol: "acp",
  command(providerUrl) {
    const home = scratch("opencode");
    const config = {
      autoupdate: false,
      share: "disabled",
      model: "bench/m",
      small_model: "bench/m",
      provider: {
        bench: {
          npm: "@ai-sdk/openai-compatible",
          name: "bench",
          options: { baseURL: `${providerUrl}/v1`, apiKey: "sk-bench" },
          models: { m: { name: "m", limit: { context: model.contextWindow, output: model.maxTokens }, tool_call: true } },
        },
      },
      permission: { edit: "allow", bash: "allow", webfetch: "allow" },
    };
    return {
      cmd: [OPENCODE_BIN, "acp"],
      env: {
        ...baseEnv(home),
        XDG_CONFIG_HOME: join(home, ".config"),
        XDG_DATA_HOME: join(home, ".local/share"),
        XDG_CACHE_HOME: join(home, ".cache"),
        XDG_STATE_HOME: join(home, ".local/state"),
        OPENCODE_CONFIG_CONTENT: JSON.stringify(config),
        OPENCODE_DISABLE_AUTOUPDATE: "1",
        OPENCODE_DISABLE_MODELS_FETCH: "1",
        OPENCODE_DISABLE_LSP_DOWNLOAD: "1",
        OPENCODE_DISABLE_SHARE: "1",
        OPENCODE_DISABLE_DEFAULT_PLUGINS: "1",
        OPENCODE_DISABLE_CLAUDE_CODE: "1",
        OPENCODE_DISABLE_EXTERNAL_SKILLS: "1",
      },
      cwd: project(home),
      home,
    };
  },
  tools: {
    read: (filePath) => ({ name: "read", args: { filePath } }),
    edit: (filePath, oldString, newString) => ({ name: "edit", args: { filePath, oldString, newString } }),
    bash: (command) => ({ name: "bash", args: { command } }),
  },
};

export const agents: Agent[] = [nova, piNode, piBun, omp, pi16, claude, codex, gemini, opencode];
