/**
 * Runs one shell command line for the bash tool and for the user's own `bash`
 * command. The shell gets its own process group so that an abort or a timeout
 * can take down everything it started: SIGTERM first, SIGKILL after a grace.
 */
import type { Subprocess } from "bun";
import { OutputBuffer } from "./output-buffer.ts";
import { toolEnvironment } from "./environment.ts";

export interface ShellOptions {
  cwd: string;
  signal?: AbortSignal;
  timeoutMs?: number;
  /** the output so far (its shown tail, not a delta), throttled */
  onOutput?: (accumulatedTail: string) => void;
  /** every chunk of output as it arrives, unthrottled (the host's own `bash` streams these) */
  onChunk?: (chunk: Uint8Array) => void;
  /** run under a pseudo-terminal, so programs behave as in a terminal */
  usePty?: boolean;
  /** variables added to the inherited environment; undefined removes one */
  env?: Record<string, string | undefined>;
  /** confines the shell (src/sandbox/); absent: it runs with the user's rights */
  sandbox?: ShellSandbox;
}

/** What runShell needs of the OS sandbox: the argv that runs a command confined. */
export interface ShellSandbox {
  wrap(command: string[], cwd: string, opts: { pty: boolean }): string[];
}

export interface ShellResult {
  output: string;
  /** null when the shell was ended by a signal */
  exitCode: number | null;
  cancelled: boolean;
  truncated: boolean;
  fullOutputPath?: string;
  timedOut: boolean;
}

const KILL_GRACE_MS = 2000;
/** How long to keep reading after the shell exited, for output still in the pipe; a background child may hold it open forever. */
const DRAIN_MS = 250;
const UPDATE_INTERVAL_MS = 100;

let shellPath: string | undefined;
export function shell(): string {
  shellPath ??= Bun.which("bash") ?? "/bin/sh";
  return shellPath;
}

export async function runShell(command: string, opts: ShellOptions): Promise<ShellResult> {
  const buffer = new OutputBuffer();
  const updates = throttle(() => opts.onOutput?.(buffer.tail().text), UPDATE_INTERVAL_MS);
  const onData = (chunk: Uint8Array) => {
    buffer.push(chunk);
    opts.onChunk?.(chunk);
    if (opts.onOutput) updates.request();
  };
  const env = toolEnvironment({ PAGER: "cat", GIT_PAGER: "cat", GIT_TERMINAL_PROMPT: "0" });
  for (const [name, value] of Object.entries(opts.env ?? {})) {
    if (value === undefined) delete env[name];
    else env[name] = value;
  }

  let spawned: Spawned;
  try {
    spawned = spawnShell(command, opts, env, onData);
  } catch (err) {
    throw new Error(`cannot start ${shell()} in ${opts.cwd}: ${(err as Error).message}`);
  }
  const { proc, outputDone, stopReading } = spawned;

  let cancelled = false;
  let timedOut = false;
  let killTimer: Timer | undefined;
  const killGroup = () => {
    if (killTimer) return;
    signalGroup(proc.pid, "SIGTERM");
    killTimer = setTimeout(() => signalGroup(proc.pid, "SIGKILL"), KILL_GRACE_MS);
  };
  const onAbort = () => {
    cancelled = true;
    killGroup();
  };
  if (opts.signal?.aborted) onAbort();
  else opts.signal?.addEventListener("abort", onAbort, { once: true });
  const timeout =
    opts.timeoutMs !== undefined
      ? setTimeout(() => {
          timedOut = true;
          killGroup();
        }, opts.timeoutMs)
      : undefined;

  await proc.exited;
  clearTimeout(timeout);
  opts.signal?.removeEventListener("abort", onAbort);
  // The shell is gone; if it was killed, make sure nothing it started outlives it.
  if (cancelled || timedOut) {
    clearTimeout(killTimer);
    signalGroup(proc.pid, "SIGKILL");
  }
  await Promise.race([outputDone, Bun.sleep(DRAIN_MS)]);
  stopReading();
  updates.cancel();
  await buffer.close();

  const { text, truncated } = buffer.tail();
  return {
    output: text,
    exitCode: proc.exitCode,
    cancelled,
    truncated,
    fullOutputPath: buffer.logPath,
    timedOut,
  };
}

interface Spawned {
  proc: Subprocess;
  /** settles once the output has ended */
  outputDone: Promise<unknown>;
  stopReading: () => void;
}

function spawnShell(command: string, opts: ShellOptions, env: Record<string, string | undefined>, onData: (chunk: Uint8Array) => void): Spawned {
  if (opts.usePty) {
    const { promise, resolve } = Promise.withResolvers<void>();
    const proc = Bun.spawn(argv(command, opts), {
      cwd: opts.cwd,
      env,
      detached: true,
      terminal: { cols: 200, rows: 50, data: (_t, data) => onData(data), exit: () => resolve() },
    });
    return { proc, outputDone: promise, stopReading: () => proc.terminal?.close() };
  }
  const proc = Bun.spawn(argv(command, opts), { cwd: opts.cwd, env, detached: true, stdin: "ignore", stdout: "pipe", stderr: "pipe" });
  const readers = [proc.stdout.getReader(), proc.stderr.getReader()];
  return {
    proc,
    outputDone: Promise.all(readers.map((r) => pump(r, onData))),
    stopReading: () => {
      for (const r of readers) r.cancel().catch(() => undefined);
    },
  };
}

function argv(command: string, opts: ShellOptions): string[] {
  const plain = [shell(), "-c", command];
  return opts.sandbox ? opts.sandbox.wrap(plain, opts.cwd, { pty: opts.usePty === true }) : plain;
}

async function pump(reader: ReadableStreamDefaultReader<Uint8Array>, onData: (chunk: Uint8Array) => void): Promise<void> {
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      if (value.length > 0) onData(value);
    }
  } catch {
    // cancelled after the shell exited: whatever arrived is kept
  }
}

export function signalGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    // the group is already gone
  }
}

/** Calls `fn` at most once per `ms`, and once more after the last request in a burst. */
function throttle(fn: () => void, ms: number) {
  let last = 0;
  let timer: Timer | undefined;
  const fire = () => {
    timer = undefined;
    last = performance.now();
    fn();
  };
  return {
    request() {
      if (timer) return;
      const wait = last + ms - performance.now();
      if (wait <= 0) fire();
      else timer = setTimeout(fire, wait);
    },
    cancel() {
      clearTimeout(timer);
      timer = undefined;
    },
  };
}
