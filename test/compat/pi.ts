/**
 * Pi's own published RpcClient pointed at nova. The client lives in a
 * test-only install (test/compat/pi-client, its own package.json and lock,
 * installed here on first use) so Pi never becomes a dependency of nova. The
 * client runs `node <cliPath> --mode rpc ...`; cliPath is launcher.mjs, which
 * runs nova from source or the compiled binary with the same argv and stdio.
 */
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { startProviderServer, type ProviderServer } from "../support/provider-server.ts";
import { SOURCE_ENTRY, tempDir } from "../support/nova.ts";
import type { Target } from "../support/targets.ts";
import { testConfig } from "../support/scenario.ts";

type PiModule = typeof import("./pi-client/node_modules/@mariozechner/pi-coding-agent/dist/modes/rpc/rpc-client.js");
export type RpcClient = InstanceType<PiModule["RpcClient"]>;

export const PI_CLIENT_DIR = join(import.meta.dir, "pi-client");
const PI_PACKAGE = join(PI_CLIENT_DIR, "node_modules/@mariozechner/pi-coding-agent");
const LAUNCHER = join(import.meta.dir, "launcher.mjs");

/**
 * Installs the pinned package from its lockfile when missing, then loads the
 * RpcClient class the package exports, from its own module: it needs nothing
 * but node:child_process, and Bun's resolver does not see packages installed
 * after the process started.
 */
export async function loadPi(): Promise<{ RpcClient: PiModule["RpcClient"]; version: string }> {
  if (!existsSync(join(PI_PACKAGE, "package.json"))) {
    const install = Bun.spawnSync([process.execPath, "install", "--frozen-lockfile"], { cwd: PI_CLIENT_DIR, stderr: "pipe", stdout: "pipe" });
    if (install.exitCode !== 0) throw new Error(`installing Pi's client in ${PI_CLIENT_DIR} failed: ${install.stderr.toString()}`);
  }
  const module = (await import(join(PI_PACKAGE, "dist/modes/rpc/rpc-client.js"))) as PiModule;
  const version = (await Bun.file(join(PI_PACKAGE, "package.json")).json()).version as string;
  return { RpcClient: module.RpcClient, version };
}

export interface PiSetup {
  client: RpcClient;
  server: ProviderServer;
  /** every event the client's listener API delivered, from the start */
  events: any[];
  cwd: string;
  home: string;
  close(): Promise<void>;
}

export interface PiSetupOptions {
  target: Target;
  /** extra nova arguments, passed through the client's `args` option */
  args?: string[];
  /** merged into the config */
  extra?: Record<string, unknown>;
}

/** The scripted provider, a NOVA_HOME with config.yml naming it, and Pi's client running nova. */
export async function startPi(RpcClient: PiModule["RpcClient"], options: PiSetupOptions): Promise<PiSetup> {
  const server = await startProviderServer();
  const home = tempDir("nova-pi-home-");
  const cwd = tempDir("nova-pi-cwd-");
  const config = testConfig(server.url, { m2: { reasoning: true }, extra: { stream: { idleTimeoutMs: 5000 }, ...options.extra } });
  writeFileSync(join(home, "config.yml"), JSON.stringify(config));
  const nova = options.target.binary ? [options.target.binary] : [process.execPath, SOURCE_ENTRY];
  const client = new RpcClient({
    cliPath: LAUNCHER,
    cwd,
    args: options.args,
    env: {
      NOVA_COMPAT_COMMAND: JSON.stringify(nova),
      NOVA_HOME: home,
      HOME: home,
      OPENAI_API_KEY: "",
      ANTHROPIC_API_KEY: "",
      GEMINI_API_KEY: "",
      OPENROUTER_API_KEY: "",
    },
  });
  const events: any[] = [];
  client.onEvent((event) => events.push(event));
  await client.start();
  return {
    client,
    server,
    events,
    cwd,
    home,
    async close() {
      await client.stop();
      await server.close();
    },
  };
}

/** Resolves with the first event (from now on) that matches. */
export function nextEvent(client: RpcClient, match: (event: any) => boolean): Promise<any> {
  return new Promise((resolve) => {
    const stop = client.onEvent((event) => {
      if (!match(event)) return;
      stop();
      resolve(event);
    });
  });
}
