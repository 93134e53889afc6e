/**
 * The agents compared by `bun run bench:peers`: nova (compiled), Pi on Node
 * (how its RpcClient runs it), Pi on Bun, and oh-my-pi (Bun only). The peers
 * are installed from the npm registry into .bench-tmp/peers, never into
 * nova's dependencies; each gets its own config dir naming the same local
 * scripted provider as a custom OpenAI-compatible one.
 */
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { NOVA, TMP } from "../lib.ts";

export const PI_VERSION = "0.73.1";
/** 18.3.4 is the newest tag, but its own 18.3.4 dependencies are not on the registry; 18.2.3 is the newest that installs. */
export const OMP_VERSION = "18.2.3";

const PEERS = join(TMP, "peers");
const PI_CLI = join(PEERS, "node_modules/@mariozechner/pi-coding-agent/dist/cli.js");
const OMP_CLI = join(PEERS, "node_modules/@oh-my-pi/pi-coding-agent/dist/cli.js");

/** How an agent's edit tool spells one replacement. */
export type EditArgs = (path: string, oldText: string, newText: string) => Record<string, unknown>;

export interface Launch {
  cmd: string[];
  env: Record<string, string>;
  cwd: string;
}

export interface Agent {
  name: string;
  version: string;
  /** argv, environment and a fresh scratch project folder of one `--mode rpc` process pointed at the provider */
  command(providerUrl: string): Launch;
  editArgs: EditArgs;
}

export function installPeers(): void {
  mkdirSync(PEERS, { recursive: true });
  const manifest = { name: "nova-bench-peers", private: true, dependencies: { "@mariozechner/pi-coding-agent": PI_VERSION, "@oh-my-pi/pi-coding-agent": OMP_VERSION } };
  writeFileSync(join(PEERS, "package.json"), JSON.stringify(manifest, null, 2));
  const install = Bun.spawnSync(["bun", "install"], { cwd: PEERS, stdout: "ignore", stderr: "inherit" });
  if (!install.success || !existsSync(PI_CLI) || !existsSync(OMP_CLI)) throw new Error(`installing the peers into ${PEERS} failed`);
}

export function nodeVersion(): string {
  return Bun.spawnSync(["node", "--version"]).stdout.toString().trim();
}

function scratch(prefix: string): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

const model = { id: "m", contextWindow: 200000, maxTokens: 8192 };
const baseEnv = (home: string) => ({ PATH: process.env.PATH ?? "", HOME: home, TMPDIR: process.env.TMPDIR ?? tmpdir() });

/** A project folder inside the scratch home (oh-my-pi does not work in $HOME itself). */
function project(home: string): string {
  const cwd = join(home, "project");
  mkdirSync(cwd);
  return cwd;
}
const replaceArgs: EditArgs = (path, oldText, newText) => ({ path, oldText, newText });

export const nova: Agent = {
  name: "nova",
  version: "dist/nova",
  command(providerUrl) {
    const home = scratch("peers-nova-");
    const config = {
      defaultModel: "bench/m",
      providers: { bench: { api: "openai-chat", baseUrl: `${providerUrl}/v1`, apiKey: "sk-bench", models: [model] } },
      retry: { enabled: false },
    };
    writeFileSync(join(home, "config.yml"), JSON.stringify(config));
    return { cmd: [NOVA, "--mode", "rpc", "--no-session"], env: { ...baseEnv(home), NOVA_HOME: home }, cwd: project(home) };
  },
  editArgs: replaceArgs,
};

/** Pi and oh-my-pi read custom providers from PI_CODING_AGENT_DIR (models.json / models.yml). */
function piFamily(name: string, version: string, runtime: string, cli: string, modelsFile: string, env: Record<string, string>, editArgs: EditArgs): Agent {
  return {
    name,
    version,
    command(providerUrl) {
      const dir = scratch(`peers-${name.replace(/\W+/g, "-")}-`);
      const provider = { baseUrl: `${providerUrl}/v1`, api: "openai-completions", apiKey: "sk-bench", models: [model] };
      writeFileSync(join(dir, modelsFile), JSON.stringify({ providers: { bench: provider } }));
      return {
        cmd: [runtime, cli, "--mode", "rpc", "--provider", "bench", "--model", "m", "--no-session"],
        env: { ...baseEnv(dir), PI_CODING_AGENT_DIR: dir, PI_OFFLINE: "1", PI_SKIP_VERSION_CHECK: "1", ...env },
        cwd: project(dir),
      };
    },
    editArgs,
  };
}

export const piNode = piFamily("pi (node)", PI_VERSION, "node", PI_CLI, "models.json", {}, replaceArgs);
export const piBun = piFamily("pi (bun)", PI_VERSION, "bun", PI_CLI, "models.json", {}, replaceArgs);
/** omp's default edit tool speaks hashline; PI_EDIT_VARIANT=replace gives a plain replace with its own argument names. */
export const omp = piFamily("omp", OMP_VERSION, "bun", OMP_CLI, "models.yml", { PI_EDIT_VARIANT: "replace" }, (path, oldText, newText) => ({
  path,
  old_string: oldText,
  new_string: newText,
}));

export const agents: Agent[] = [nova, piNode, piBun, omp];
