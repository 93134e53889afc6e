/**
 * Pi 1.6.0 itself, for tests that hold nova up against it: its published
 * RpcClient, its SessionManager (the code that writes Pi's session files) and
 * the agent, run under Bun as `bun dist/cli.js` (Pi wants node >= 22.19).
 * The package lives in a test-only install (test/compat/pi16, its own
 * package.json and lock, installed here on first use), never a dependency of
 * nova. Pi reaches the scripted provider through a models.json in a
 * temporary agent dir (PI_CODING_AGENT_DIR) that declares the same two models
 * as nova's test config.
 */
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { SOURCE_ENTRY, tempDir } from "../support/nova.ts";
import type { ProviderServer } from "../support/provider-server.ts";
import { testConfig } from "../support/scenario.ts";

export const PI16_DIR = join(import.meta.dir, "pi16");
const PI_PACKAGE = join(PI16_DIR, "node_modules/@earendil-works/pi-coding-agent");
export const PI_CLI = join(PI_PACKAGE, "dist/cli.js");
const LAUNCHER = join(import.meta.dir, "launcher.mjs");

/** Pi's RpcClient class and SessionManager, typed loosely: their types belong to the test-only install. */
export interface Pi16 {
  RpcClient: new (options: Record<string, unknown>) => any;
  SessionManager: any;
  version: string;
}

/** Installs the pinned package from its lockfile when missing, then loads it from its own files. */
export async function loadPi16(): Promise<Pi16> {
  if (!existsSync(join(PI_PACKAGE, "package.json"))) {
    const install = Bun.spawnSync([process.execPath, "install", "--frozen-lockfile"], { cwd: PI16_DIR, stderr: "pipe", stdout: "pipe" });
    if (install.exitCode !== 0) throw new Error(`installing Pi 1.6.0 in ${PI16_DIR} failed: ${install.stderr.toString()}`);
  }
  const client = await import(join(PI_PACKAGE, "dist/modes/rpc/rpc-client.js"));
  const sessions = await import(join(PI_PACKAGE, "dist/core/session-manager.js"));
  const version = (await Bun.file(join(PI_PACKAGE, "package.json")).json()).version as string;
  return { RpcClient: client.RpcClient, SessionManager: sessions.SessionManager, version };
}

/** The models of nova's test config, in Pi's models.json (openai-completions = nova's openai-chat). */
export function piModels(server: ProviderServer) {
  return {
    providers: {
      test: {
        baseUrl: `${server.url}/v1`,
        api: "openai-completions",
        apiKey: "sk-test-secret-key-123456",
        models: [
          { id: "m1", contextWindow: 100000, maxTokens: 4096 },
          { id: "m2", contextWindow: 50000, maxTokens: 2048, reasoning: true },
        ],
      },
    },
  };
}

export type Agent = "nova" | "pi";

export interface AgentHome {
  /** the environment the agent runs with: its home, its config dir, no real API keys */
  env: Record<string, string>;
  /** where the agent keeps its files */
  home: string;
}

/**
 * A home for one agent pointed at `server`: for nova a NOVA_HOME with
 * config.yml, for Pi an agent dir with models.json and settings.json; `nova`
 * and `pi` are merged into each (compaction settings and the like).
 */
export function agentHome(agent: Agent, server: ProviderServer, nova: Record<string, unknown> = {}, pi: Record<string, unknown> = {}): AgentHome {
  const home = tempDir(`${agent}-home-`);
  const keys = { OPENAI_API_KEY: "", ANTHROPIC_API_KEY: "", GEMINI_API_KEY: "", OPENROUTER_API_KEY: "" };
  if (agent === "nova") {
    const config = testConfig(server.url, { m2: { reasoning: true }, extra: { stream: { idleTimeoutMs: 5000 }, ...nova } });
    writeFileSync(join(home, "config.yml"), JSON.stringify(config));
    return { home, env: { ...keys, NOVA_HOME: home, HOME: home } };
  }
  const agentDir = join(home, "agent");
  mkdirSync(agentDir, { recursive: true });
  writeFileSync(join(agentDir, "models.json"), JSON.stringify(piModels(server)));
  // no retries: the scripted server answers each request once
  writeFileSync(join(agentDir, "settings.json"), JSON.stringify({ defaultProvider: "test", defaultModel: "m1", retry: { enabled: false }, ...pi }));
  // Bun keeps its transpiler cache under HOME; a fresh one per run would make Pi start slowly
  return { home: agentDir, env: { ...keys, PI_CODING_AGENT_DIR: agentDir, HOME: process.env.HOME ?? home } };
}

/** The argv that runs an agent: nova from source, Pi under Bun. */
export function agentCommand(agent: Agent): string[] {
  return agent === "nova" ? [process.execPath, SOURCE_ENTRY] : [process.execPath, PI_CLI];
}

/** Pi's RpcClient running `agent` through the launcher (the client always runs `node <cliPath>`). */
export function rpcClient(pi: Pi16, agent: Agent, home: AgentHome, cwd: string, args: string[] = []): any {
  return new pi.RpcClient({
    cliPath: LAUNCHER,
    cwd,
    args: agent === "pi" ? ["--provider", "test", "--model", "m1", ...args] : args,
    env: { ...home.env, NOVA_COMPAT_COMMAND: JSON.stringify(agentCommand(agent)) },
  });
}
