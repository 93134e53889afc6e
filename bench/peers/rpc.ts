/**
 * One agent process speaking JSON lines on stdin/stdout, driven the way a
 * host drives it, cheap enough on the bench's side not to skew the agent's
 * numbers: stdout is counted byte for byte. In Pi's `--mode rpc` only the
 * head of each line is decoded to learn its type, and only the frames a
 * measure reads (responses, tool ends, agent_end) are parsed: Pi's quadratic
 * message_update lines stay bytes. The other protocols (stream-json, Codex's
 * app-server, ACP) write one short line per delta, so every line is parsed;
 * its type is the frame's `type`, else its JSON-RPC `method`, else
 * "response".
 */
import { readdirSync, readFileSync } from "node:fs";
import type { Subprocess } from "bun";
import type { Launch } from "./agents.ts";

const TICK_MS = 10; // USER_HZ = 100 on Linux
const PARSED = new Set(["response", "tool_execution_end", "agent_end"]);
const HEAD_BYTES = 96;

export interface Frame {
  type: string;
  /** the parsed frame, for the types in PARSED */
  data?: any;
}

export class RpcProcess {
  /** stdout bytes so far */
  bytes = 0;
  /** performance.now() just before the spawn */
  readonly spawnedAt = performance.now();
  readonly exited: Promise<number>;
  private readonly proc: Subprocess<"pipe", "pipe", "pipe">;
  private line: Uint8Array[] = [];
  private waiters: { match: (f: Frame) => boolean; resolve: (f: Frame) => void; reject: (e: Error) => void; cancel: () => void }[] = [];
  private listeners: ((f: Frame) => void)[] = [];
  private stderrText = "";
  private stopping = false;
  private nextId = 1;
  private readonly decoder = new TextDecoder();

  constructor(
    readonly launch: Launch,
    /** parse every line, not only Pi's PARSED types */
    private readonly parseAll = false,
  ) {
    this.proc = Bun.spawn(launch.cmd, { cwd: launch.cwd, env: launch.env, stdin: "pipe", stdout: "pipe", stderr: "pipe" });
    const reading = Promise.all([this.readStdout(), this.readStderr()]);
    this.exited = this.proc.exited.then(async (code) => {
      await reading;
      this.failWaiters(`exited with code ${code} (signal ${this.proc.signalCode ?? "none"})`);
      return code;
    });
  }

  get pid(): number {
    return this.proc.pid;
  }

  send(frame: object | string): void {
    this.proc.stdin.write(typeof frame === "string" ? frame : JSON.stringify(frame) + "\n");
    this.proc.stdin.flush();
  }

  /** Sends a command with a fresh id; resolves with its response frame. */
  async request(frame: Record<string, unknown>, timeoutMs = 60_000): Promise<any> {
    const id = `b${this.nextId++}`;
    const response = this.waitFor((f) => f.type === "response" && f.data.id === id, timeoutMs);
    this.send({ ...frame, id });
    return (await response).data;
  }

  /** The next frame (from now on) that matches. */
  waitFor(match: (f: Frame) => boolean, timeoutMs = 120_000): Promise<Frame> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(this.error(`no matching frame after ${timeoutMs} ms`)), timeoutMs);
      this.waiters.push({
        match,
        resolve: (f) => (clearTimeout(timer), resolve(f)),
        reject: (e) => (clearTimeout(timer), reject(e)),
        cancel: () => clearTimeout(timer),
      });
    });
  }

  /** Sees every typed frame from now on. */
  onFrame(listener: (f: Frame) => void): void {
    this.listeners.push(listener);
  }

  waitForType(type: string, timeoutMs?: number): Promise<Frame> {
    return this.waitFor((f) => f.type === type, timeoutMs);
  }

  /**
   * user + system CPU time, ms, of the process, its children that ended and
   * were waited for, and its live descendants (a peer may run its work in a
   * child process)
   */
  cpuMs(): number {
    let ticks = 0;
    for (const pid of tree(this.pid)) {
      const fields = stat(pid);
      if (fields) ticks += Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14]);
    }
    return ticks * TICK_MS;
  }

  /** resident set now (VmRSS) or at its peak (VmHWM), KiB, summed over the process and its live descendants */
  rssKb(which: "VmRSS" | "VmHWM" = "VmRSS"): number {
    let kb = 0;
    for (const pid of tree(this.pid)) {
      const status = read(`/proc/${pid}/status`);
      kb += Number(new RegExp(`${which}:\\s+(\\d+)`).exec(status ?? "")?.[1] ?? 0);
    }
    return kb;
  }

  async stop(): Promise<void> {
    this.stopping = true;
    this.proc.stdin.end();
    this.proc.kill("SIGKILL");
    await this.exited;
  }

  private error(what: string): Error {
    return new Error(`${this.launch.cmd.join(" ")}: ${what}\nstderr: ${this.stderrText.slice(-1500)}`);
  }

  /** A process that ends on its own leaves nobody waiting forever. */
  private failWaiters(how: string): void {
    const waiters = this.waiters;
    this.waiters = [];
    // a stopped agent's waiters just end: nobody is waiting for them any more
    for (const w of waiters) {
      if (this.stopping) w.cancel();
      else w.reject(this.error(how));
    }
  }

  private async readStdout(): Promise<void> {
    for await (const chunk of this.proc.stdout) {
      this.bytes += chunk.length;
      let start = 0;
      for (let lf = chunk.indexOf(10); lf >= 0; lf = chunk.indexOf(10, start)) {
        this.line.push(chunk.subarray(start, lf));
        this.endLine();
        start = lf + 1;
      }
      if (start < chunk.length) this.line.push(chunk.subarray(start));
    }
  }

  private endLine(): void {
    const parts = this.line;
    this.line = [];
    const head = this.parseAll ? "" : this.decoder.decode(concat(parts, HEAD_BYTES));
    const frame = this.parseAll ? parsed(this.decoder.decode(concat(parts, Infinity))) : headed(head);
    if (!frame) return;
    if (!this.parseAll && PARSED.has(frame.type)) frame.data = JSON.parse(this.decoder.decode(concat(parts, Infinity)));
    for (const listener of this.listeners) listener(frame);
    this.waiters = this.waiters.filter((w) => {
      if (!w.match(frame)) return true;
      w.resolve(frame);
      return false;
    });
  }

  private async readStderr(): Promise<void> {
    for await (const chunk of this.proc.stderr) this.stderrText = (this.stderrText + this.decoder.decode(chunk)).slice(-4000);
  }
}

/** Pi's frames: the type from the head of the line. */
function headed(head: string): Frame | undefined {
  const type = /"type":"([a-z_]+)"/.exec(head)?.[1];
  return type ? { type } : undefined;
}

function parsed(line: string): Frame | undefined {
  let data: any;
  try {
    data = JSON.parse(line);
  } catch {
    return undefined;
  }
  if (typeof data !== "object" || data === null) return undefined;
  const type = typeof data.type === "string" ? data.type : typeof data.method === "string" ? data.method : "response";
  return { type, data };
}

function read(file: string): string | undefined {
  try {
    return readFileSync(file, "utf8");
  } catch {
    return undefined;
  }
}

/** /proc/PID/stat's fields after the command name (field 3 on), or undefined once the process is gone */
function stat(pid: number): string[] | undefined {
  return read(`/proc/${pid}/stat`)?.split(") ")[1]?.split(" ");
}

/** The process and its live descendants. */
function tree(root: number): number[] {
  const out: number[] = [];
  const todo = [root];
  while (todo.length > 0) {
    const pid = todo.pop()!;
    out.push(pid);
    for (const task of readdir(`/proc/${pid}/task`)) {
      for (const child of (read(`/proc/${pid}/task/${task}/children`) ?? "").split(" ")) if (child) todo.push(Number(child));
    }
  }
  return out;
}

function readdir(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}

/** The first `limit` bytes of the parts, as one array. */
function concat(parts: Uint8Array[], limit: number): Uint8Array {
  let length = 0;
  for (const p of parts) length += p.length;
  const out = new Uint8Array(Math.min(length, limit));
  let at = 0;
  for (const p of parts) {
    if (at >= out.length) break;
    const piece = p.subarray(0, out.length - at);
    out.set(piece, at);
    at += piece.length;
  }
  return out;
}
