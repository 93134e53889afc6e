/**
 * The editor's own services, offered to the tools when the client declared
 * them at initialize: files through fs/read_text_file and fs/write_text_file
 * (so unsaved buffers are read and edits land in the editor, which shows
 * them as its own diffs), commands in editor terminals through terminal/*.
 */
import { readFile } from "node:fs/promises";
import type { ToolContext } from "../tools/types.ts";
import type { ShellOptions, ShellResult } from "../tools/run-shell.ts";
import { atomicWrite } from "../tools/atomic-write.ts";
import { MAX_BYTES } from "../tools/limits.ts";
import { clientRequests } from "./client-requests.ts";
import type { Connection } from "./connection.ts";
import type { InitializeParams } from "./params.ts";

export type ClientCapabilities = NonNullable<InitializeParams["clientCapabilities"]>;

export interface ServiceHooks {
  /** the ACP session id; known only once the core session exists */
  sessionId(): string;
  /** a command started in an editor terminal, so the tool call can embed it */
  onTerminal(terminalId: string): void;
}

export function clientServices(conn: Connection, caps: ClientCapabilities, hooks: ServiceHooks): Pick<ToolContext, "fs" | "terminal"> {
  const services: Pick<ToolContext, "fs" | "terminal"> = {};
  const { readTextFile, writeTextFile } = caps.fs ?? {};
  if (readTextFile || writeTextFile) {
    services.fs = {
      readTextFile: async (path) => {
        if (!readTextFile) return readFile(path, "utf8");
        const answer = await conn.request(clientRequests.readTextFile, { sessionId: hooks.sessionId(), path });
        return answer.content;
      },
      writeTextFile: async (path, content) => {
        if (!writeTextFile) return atomicWrite(path, content);
        await conn.request(clientRequests.writeTextFile, { sessionId: hooks.sessionId(), path, content });
      },
    };
  }
  if (caps.terminal) services.terminal = { run: (command, options) => runInTerminal(conn, hooks, command, options) };
  return services;
}

/** runShell's contract over an editor terminal: abort and timeout kill it; it is released either way. */
async function runInTerminal(conn: Connection, hooks: ServiceHooks, command: string, options: ShellOptions): Promise<ShellResult> {
  const sessionId = hooks.sessionId();
  const { terminalId } = await conn.request(clientRequests.createTerminal, {
    sessionId,
    command: "bash",
    args: ["-c", command],
    cwd: options.cwd,
    env: Object.entries(options.env ?? {}).flatMap(([name, value]) => (value === undefined ? [] : [{ name, value }])),
    outputByteLimit: MAX_BYTES,
  });
  hooks.onTerminal(terminalId);
  const ids = { sessionId, terminalId };
  let cancelled = false;
  let timedOut = false;
  const kill = () => void conn.request(clientRequests.killTerminal, ids).catch(() => undefined);
  const onAbort = () => {
    cancelled = true;
    kill();
  };
  options.signal?.addEventListener("abort", onAbort, { once: true });
  if (options.signal?.aborted) onAbort();
  const timer = options.timeoutMs === undefined ? undefined : setTimeout(() => ((timedOut = true), kill()), options.timeoutMs);
  try {
    const exit = await conn.request(clientRequests.waitForTerminalExit, ids);
    const output = await conn.request(clientRequests.terminalOutput, ids);
    return { output: output.output, exitCode: exit.exitCode ?? null, cancelled, timedOut, truncated: output.truncated };
  } finally {
    clearTimeout(timer);
    options.signal?.removeEventListener("abort", onAbort);
    void conn.request(clientRequests.releaseTerminal, ids).catch(() => undefined);
  }
}
