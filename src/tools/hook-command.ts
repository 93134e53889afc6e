/**
 * Runs one hook command (docs/permissions.md#hooks): `bash -c` in the session
 * cwd with the tool environment (secrets removed), inside the OS sandbox when
 * it is on, the event's JSON on stdin, stdout and stderr captured (never
 * nova's own stdout), its process group killed when the timeout passes.
 */
import { toolEnvironment } from "./environment.ts";
import { shell, signalGroup, type ShellSandbox } from "./run-shell.ts";

export interface HookCommandResult {
  exitCode: number | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
}

/** More output than this is cut: a hook answers in a line or a small JSON object. */
const MAX_OUTPUT = 1024 * 1024;

export async function runHookCommand(
  command: string,
  opts: { cwd: string; input: string; timeoutMs: number; env?: Record<string, string>; sandbox?: ShellSandbox; signal?: AbortSignal },
): Promise<HookCommandResult> {
  const plain = [shell(), "-c", command];
  const argv = opts.sandbox ? opts.sandbox.wrap(plain, opts.cwd, { pty: false }) : plain;
  const proc = Bun.spawn(argv, { cwd: opts.cwd, env: toolEnvironment(opts.env), detached: true, stdin: "pipe", stdout: "pipe", stderr: "pipe" });
  let timedOut = false;
  const kill = () => signalGroup(proc.pid, "SIGKILL");
  const timer = setTimeout(() => {
    timedOut = true;
    kill();
  }, opts.timeoutMs);
  opts.signal?.addEventListener("abort", kill, { once: true });
  try {
    proc.stdin.write(opts.input);
    await proc.stdin.end();
  } catch {
    // the hook did not read its input: that is its business
  }
  const [stdout, stderr] = await Promise.all([read(proc.stdout), read(proc.stderr), proc.exited]);
  clearTimeout(timer);
  opts.signal?.removeEventListener("abort", kill);
  // nothing the hook started may outlive it
  if (timedOut) kill();
  return { exitCode: proc.exitCode, stdout, stderr, timedOut };
}

async function read(stream: ReadableStream<Uint8Array>): Promise<string> {
  const decoder = new TextDecoder();
  let text = "";
  for await (const chunk of stream) {
    if (text.length < MAX_OUTPUT) text += decoder.decode(chunk, { stream: true });
  }
  return text.slice(0, MAX_OUTPUT);
}
