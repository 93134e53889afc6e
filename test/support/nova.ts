/**
 * Spawns the real nova process (from source, or the compiled binary when
 * NOVA_BIN is set or `binary` is given) and talks to it in JSON lines:
 * send frames, await frames by predicate, request/response by id.
 */
import { writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import type { Subprocess } from "bun";

export const ROOT = resolve(import.meta.dir, "../..");
export const SOURCE_ENTRY = join(ROOT, "src/main.ts");

export type Frame = Record<string, any>;

export interface SpawnOptions {
  args?: string[];
  env?: Record<string, string | undefined>;
  /** YAML text or an object written as the config file (passed with --config) */
  config?: string | object;
  cwd?: string;
  /** path of a compiled nova; defaults to $NOVA_BIN, else runs from source */
  binary?: string;
  /** what runs the binary: an emulator's command line (`["qemu-aarch64", "-L", sysroot]`) */
  runner?: string[];
  /** NOVA_HOME; a fresh temp dir by default */
  home?: string;
}

import { tempDir } from "./temp.ts";

export { tempDir };

export function command(options: SpawnOptions = {}): string[] {
  const binary = options.binary ?? process.env.NOVA_BIN;
  return binary ? [...(options.runner ?? []), binary] : [process.execPath, SOURCE_ENTRY];
}

export class Nova {
  readonly frames: Frame[] = [];
  stderr = "";
  /** resolves with the exit code once stdout and stderr are fully read */
  readonly exited: Promise<number>;
  readonly home: string;
  private waiters: { match: (f: Frame) => boolean; resolve: (f: Frame) => void; from: number }[] = [];
  private stderrWaiters: { text: string; resolve: () => void }[] = [];
  private nextId = 1;
  private closed = false;

  constructor(
    readonly proc: Subprocess<"pipe", "pipe", "pipe">,
    home: string,
  ) {
    this.home = home;
    const streams = Promise.all([this.readStdout(), this.readStderr()]);
    this.exited = proc.exited.then(async (code) => (await streams, code));
  }

  get pid(): number {
    return this.proc.pid;
  }

  /** Writes one frame (object → JSON line, string → as is, plus LF unless it has one). */
  send(frame: object | string): void {
    const text = typeof frame === "string" ? frame : JSON.stringify(frame);
    this.proc.stdin.write(text.endsWith("\n") ? text : text + "\n");
    this.proc.stdin.flush();
  }

  sendBytes(bytes: Uint8Array): void {
    this.proc.stdin.write(bytes);
    this.proc.stdin.flush();
  }

  /** Sends a command with a fresh id and resolves with its response. */
  async request(frame: Frame): Promise<Frame> {
    const id = frame.id ?? `t${this.nextId++}`;
    const waiting = this.waitFor((f) => f.type === "response" && f.id === id, 0);
    this.send({ ...frame, id });
    return waiting;
  }

  /** The first frame (from index `from`, default: any seen so far) that matches. */
  waitFor(match: (f: Frame) => boolean, from = 0, timeoutMs = 20000): Promise<Frame> {
    for (let i = from; i < this.frames.length; i++) if (match(this.frames[i]!)) return Promise.resolve(this.frames[i]!);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        reject(
          new Error(
            `timed out waiting for a frame; got ${this.frames.length} frames, last: ${JSON.stringify(this.frames.at(-1))?.slice(0, 300)}\nstderr: ${this.stderr.slice(-2000)}`,
          ),
        );
      }, timeoutMs);
      this.waiters.push({ match, from, resolve: (f) => (clearTimeout(timer), resolve(f)) });
    });
  }

  waitForType(type: string, from = 0): Promise<Frame> {
    return this.waitFor((f) => f.type === type, from);
  }

  /** Resolves once stderr contains `text`. */
  waitForStderr(text: string, timeoutMs = 20000): Promise<void> {
    if (this.stderr.includes(text)) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`stderr never contained ${JSON.stringify(text)}; got: ${this.stderr.slice(-2000)}`)), timeoutMs);
      this.stderrWaiters.push({ text, resolve: () => (clearTimeout(timer), resolve()) });
    });
  }

  closeStdin(): void {
    if (this.closed) return;
    this.closed = true;
    this.proc.stdin.end();
  }

  async stop(): Promise<number> {
    this.closeStdin();
    const code = await Promise.race([this.exited, Bun.sleep(10000).then(() => -1)]);
    if (code === -1) this.proc.kill("SIGKILL");
    return code;
  }

  private async readStdout(): Promise<void> {
    const decoder = new TextDecoder();
    let buffer = "";
    for await (const chunk of this.proc.stdout) {
      buffer += decoder.decode(chunk, { stream: true });
      let lf: number;
      while ((lf = buffer.indexOf("\n")) >= 0) {
        const line = buffer.slice(0, lf);
        buffer = buffer.slice(lf + 1);
        this.push(JSON.parse(line));
      }
    }
    if (buffer.length > 0) this.push({ type: "__unterminated__", text: buffer });
  }

  private push(frame: Frame): void {
    const index = this.frames.length;
    this.frames.push(frame);
    this.waiters = this.waiters.filter((w) => {
      if (index >= w.from && w.match(frame)) {
        w.resolve(frame);
        return false;
      }
      return true;
    });
  }

  private async readStderr(): Promise<void> {
    const decoder = new TextDecoder();
    for await (const chunk of this.proc.stderr) {
      this.stderr += decoder.decode(chunk, { stream: true });
      this.stderrWaiters = this.stderrWaiters.filter((w) => (this.stderr.includes(w.text) ? (w.resolve(), false) : true));
    }
  }
}

/** Spawns nova and waits for its ready frame. */
export async function startNova(options: SpawnOptions = {}): Promise<Nova> {
  const nova = spawnNova(options);
  const first = await nova.waitFor(() => true);
  if (first.type !== "ready") throw new Error(`first frame was not ready: ${JSON.stringify(first)}`);
  return nova;
}

export function spawnNova(options: SpawnOptions = {}): Nova {
  const home = options.home ?? tempDir("nova-home-");
  const args = [...(options.args ?? [])];
  if (options.config !== undefined) {
    const file = join(home, "test-config.yml");
    writeFileSync(file, typeof options.config === "string" ? options.config : JSON.stringify(options.config));
    args.push("--config", file);
  }
  const env: Record<string, string | undefined> = {
    PATH: process.env.PATH,
    HOME: home,
    TMPDIR: process.env.TMPDIR,
    NOVA_HOME: home,
    // the built-in Ollama lists its models at start: never the developer's own Ollama
    OLLAMA_HOST: "http://127.0.0.1:1",
    ...options.env,
  };
  const proc = Bun.spawn([...command(options), ...args], {
    cwd: options.cwd ?? home,
    env: Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined)) as Record<string, string>,
    stdin: "pipe",
    stdout: "pipe",
    stderr: "pipe",
  });
  return new Nova(proc, home);
}
