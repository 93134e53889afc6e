/**
 * nova-agent/client started the way the other process-level tests start nova:
 * a fresh NOVA_HOME, the config written beside it, no developer's Ollama.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { NovaClient, type StartOptions } from "../../src/client/index.ts";
import { command, tempDir } from "./nova.ts";

export async function startClient(options: StartOptions & { config?: object; binaryPath?: string } = {}): Promise<NovaClient> {
  const home = tempDir("nova-home-");
  const args = [...(options.args ?? [])];
  if (options.config !== undefined) {
    const file = join(home, "test-config.yml");
    writeFileSync(file, JSON.stringify(options.config));
    args.push("--config", file);
  }
  return NovaClient.start({
    ...options,
    binary: command({ binary: options.binaryPath }),
    args,
    cwd: options.cwd ?? home,
    env: { PATH: process.env.PATH, HOME: home, TMPDIR: process.env.TMPDIR, NOVA_HOME: home, OLLAMA_HOST: "http://127.0.0.1:1", ...options.env },
    stderr: options.stderr ?? (() => {}),
  });
}
