/**
 * Runs nova once the way a script or a person does (-p, --mode json): args,
 * optional stdin, a fresh NOVA_HOME and cwd; resolves with the exit code and
 * everything it wrote.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { command, tempDir } from "../support/nova.ts";

export interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

export interface RunOptions {
  cwd?: string;
  home?: string;
  /** text piped to stdin; none: stdin is /dev/null */
  stdin?: string;
  binary?: string;
  env?: Record<string, string>;
}

export function spawnOnce(args: string[], options: RunOptions = {}) {
  return Bun.spawn([...command({ binary: options.binary }), ...args], {
    cwd: options.cwd ?? tempDir("nova-cwd-"),
    env: { PATH: process.env.PATH, HOME: process.env.HOME, NOVA_HOME: options.home ?? tempDir("nova-home-"), ...options.env },
    stdin: options.stdin === undefined ? "ignore" : new TextEncoder().encode(options.stdin),
    stdout: "pipe",
    stderr: "pipe",
  });
}

export async function runOnce(args: string[], options: RunOptions = {}): Promise<Run> {
  const proc = spawnOnce(args, options);
  const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  return { code, stdout, stderr };
}

/** A config with one scripted provider `ci` (model `replay`) reading `script` (YAML text). */
export function scriptedConfig(home: string, script: string, extra = ""): string {
  writeFileSync(join(home, "script.yml"), script);
  const file = join(home, "config.yml");
  writeFileSync(file, `defaultModel: ci/replay\nproviders:\n  ci:\n    api: scripted\n    script: script.yml\n    models: [{id: replay}]\n${extra}`);
  return file;
}
