/**
 * nova --mode acp driven by the official ACP TypeScript SDK's
 * ClientSideConnection, against the scripted provider. The test client
 * records every session/update, answers permission requests as the test
 * says, and can serve files and terminals like an editor.
 */
import { ClientSideConnection, ndJsonStream, type Client } from "@agentclientprotocol/sdk";
import type * as acp from "@agentclientprotocol/sdk";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Subprocess } from "bun";
import { command, tempDir } from "../support/nova.ts";
import { startProviderServer, type ProviderServer } from "../support/provider-server.ts";
import { fixtures } from "../support/fixtures/index.ts";
import { testConfig } from "../support/scenario.ts";

export const f = fixtures.openaiChat;
export const PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==";

export interface ClientOptions {
  /** answers session/request_permission; default: reject once */
  permission?: (request: acp.RequestPermissionRequest) => Promise<acp.RequestPermissionResponse> | acp.RequestPermissionResponse;
  /** serve fs/* from these editor buffers (path → text), falling back to disk */
  buffers?: Map<string, string>;
  /** serve terminal/* by running the command here */
  terminal?: boolean;
}

export interface StartOptions extends ClientOptions {
  server?: ProviderServer;
  home?: string;
  cwd?: string;
  binary?: string;
  reasoning?: boolean;
  /** merged into the config object */
  extra?: Record<string, unknown>;
}

/** What the editor side saw and did. */
export class TestClient implements Client {
  readonly updates: acp.SessionNotification[] = [];
  readonly permissionRequests: acp.RequestPermissionRequest[] = [];
  readonly reads: string[] = [];
  readonly writes: { path: string; content: string }[] = [];
  readonly terminals = new Map<string, { params: acp.CreateTerminalRequest; output: string; exit: Promise<number | null>; proc: Subprocess }>();
  readonly released: string[] = [];
  /** extension notifications (`_nova/...`) as the SDK hands them over */
  readonly extensions: { method: string; params: Record<string, unknown> }[] = [];
  private waiters: { match: (u: acp.SessionNotification) => boolean; resolve: (u: acp.SessionNotification) => void }[] = [];
  private extWaiters: { match: (params: Record<string, unknown>) => boolean; resolve: () => void }[] = [];
  private nextTerminal = 1;

  constructor(private readonly options: ClientOptions) {}

  async requestPermission(params: acp.RequestPermissionRequest): Promise<acp.RequestPermissionResponse> {
    this.permissionRequests.push(params);
    if (this.options.permission) return this.options.permission(params);
    return { outcome: { outcome: "selected", optionId: "reject_once" } };
  }

  async sessionUpdate(params: acp.SessionNotification): Promise<void> {
    this.updates.push(params);
    this.waiters = this.waiters.filter((w) => (w.match(params) ? (w.resolve(params), false) : true));
  }

  async extNotification(method: string, params: Record<string, unknown>): Promise<void> {
    this.extensions.push({ method, params });
    this.extWaiters = this.extWaiters.filter((w) => (w.match(params) ? (w.resolve(), false) : true));
  }

  /** Resolves once an extension notification (seen already or still to come) matches. */
  waitForExtension(method: string, match: (params: Record<string, unknown>) => boolean, timeoutMs = 15000): Promise<void> {
    const matches = (params: Record<string, unknown>) => match(params);
    if (this.extensions.some((e) => e.method === method && matches(e.params))) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no matching ${method}; got ${JSON.stringify(this.extensions).slice(-1500)}`)), timeoutMs);
      this.extWaiters.push({ match: (params) => this.extensions.at(-1)?.method === method && matches(params), resolve: () => (clearTimeout(timer), resolve()) });
    });
  }

  /** The first update (seen already or still to come) that matches. */
  waitForUpdate(match: (u: acp.SessionNotification) => boolean, timeoutMs = 15000): Promise<acp.SessionNotification> {
    const seen = this.updates.find(match);
    if (seen) return Promise.resolve(seen);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no matching session/update; got ${JSON.stringify(this.updates).slice(-1500)}`)), timeoutMs);
      this.waiters.push({ match, resolve: (u) => (clearTimeout(timer), resolve(u)) });
    });
  }

  kinds(): string[] {
    return this.updates.map((u) => u.update.sessionUpdate);
  }

  text(kind: "agent_message_chunk" | "agent_thought_chunk" | "user_message_chunk"): string {
    return this.updates.flatMap((u) => (u.update.sessionUpdate === kind && u.update.content.type === "text" ? [u.update.content.text] : [])).join("");
  }

  toolUpdates(toolCallId: string) {
    return this.updates.flatMap((u) =>
      (u.update.sessionUpdate === "tool_call" || u.update.sessionUpdate === "tool_call_update") && u.update.toolCallId === toolCallId ? [u.update] : [],
    );
  }

  async readTextFile(params: acp.ReadTextFileRequest): Promise<acp.ReadTextFileResponse> {
    this.reads.push(params.path);
    const buffer = this.options.buffers?.get(params.path);
    return { content: buffer ?? (await Bun.file(params.path).text()) };
  }

  async writeTextFile(params: acp.WriteTextFileRequest): Promise<acp.WriteTextFileResponse> {
    this.writes.push({ path: params.path, content: params.content });
    this.options.buffers?.set(params.path, params.content);
    return {};
  }

  async createTerminal(params: acp.CreateTerminalRequest): Promise<acp.CreateTerminalResponse> {
    const terminalId = `term-${this.nextTerminal++}`;
    const proc = Bun.spawn([params.command, ...(params.args ?? [])], { cwd: params.cwd ?? undefined, stdout: "pipe", stderr: "pipe" });
    const entry = { params, output: "", proc, exit: Promise.resolve<number | null>(null) };
    const read = async (stream: ReadableStream<Uint8Array>) => {
      for await (const chunk of stream) entry.output += new TextDecoder().decode(chunk);
    };
    entry.exit = Promise.all([read(proc.stdout), read(proc.stderr), proc.exited]).then(() => proc.exitCode);
    this.terminals.set(terminalId, entry);
    return { terminalId };
  }

  async terminalOutput(params: acp.TerminalOutputRequest): Promise<acp.TerminalOutputResponse> {
    const entry = this.terminals.get(params.terminalId)!;
    return { output: entry.output, truncated: false };
  }

  async waitForTerminalExit(params: acp.WaitForTerminalExitRequest): Promise<acp.WaitForTerminalExitResponse> {
    return { exitCode: await this.terminals.get(params.terminalId)!.exit };
  }

  async killTerminal(params: acp.KillTerminalRequest): Promise<acp.KillTerminalResponse> {
    this.terminals.get(params.terminalId)?.proc.kill();
    return {};
  }

  async releaseTerminal(params: acp.ReleaseTerminalRequest): Promise<acp.ReleaseTerminalResponse> {
    this.released.push(params.terminalId);
    return {};
  }
}

export interface AcpNova {
  conn: ClientSideConnection;
  client: TestClient;
  server: ProviderServer;
  proc: Subprocess<"pipe", "pipe", "pipe">;
  home: string;
  cwd: string;
  stderr(): string;
  /** initialize with the capabilities this client offers */
  initialize(): Promise<acp.InitializeResponse>;
  close(): Promise<number>;
}

export function acpConfig(server: ProviderServer, reasoning = false) {
  return testConfig(server.url, {
    m1: { reasoning, input: ["text", "image"] },
    extra: { retry: { enabled: false }, stream: { idleTimeoutMs: 5000 } },
  });
}

/** A child's stdin as the WritableStream ndJsonStream writes to. */
export function stdinStream(proc: Subprocess<"pipe", "pipe", "pipe">): WritableStream<Uint8Array> {
  return new WritableStream<Uint8Array>({
    write(chunk) {
      proc.stdin.write(chunk);
      proc.stdin.flush();
    },
    close() {
      proc.stdin.end();
    },
  });
}

/** Spawns nova --mode acp (from source, or `binary`) and connects the SDK client to it. */
export async function startAcp(options: StartOptions = {}): Promise<AcpNova> {
  const server = options.server ?? (await startProviderServer());
  const home = options.home ?? tempDir("nova-acp-home-");
  const cwd = options.cwd ?? tempDir("nova-acp-cwd-");
  const configFile = join(home, "test-config.yml");
  writeFileSync(configFile, JSON.stringify({ ...acpConfig(server, options.reasoning), ...options.extra }));
  const proc = Bun.spawn([...command({ binary: options.binary }), "--mode", "acp", "--config", configFile], {
    cwd,
    env: { PATH: process.env.PATH ?? "", HOME: home, NOVA_HOME: home, ...(process.env.TMPDIR ? { TMPDIR: process.env.TMPDIR } : {}) },
    stdin: "pipe",
    stdout: "pipe",
    stderr: "pipe",
  });
  let stderr = "";
  const stderrDone = (async () => {
    for await (const chunk of proc.stderr) stderr += new TextDecoder().decode(chunk);
  })();
  const input = stdinStream(proc);
  const client = new TestClient(options);
  const conn = new ClientSideConnection(() => client, ndJsonStream(input, proc.stdout));
  return {
    conn,
    client,
    server,
    proc,
    home,
    cwd,
    stderr: () => stderr,
    initialize: () =>
      conn.initialize({
        protocolVersion: 1,
        clientCapabilities: {
          fs: { readTextFile: options.buffers !== undefined, writeTextFile: options.buffers !== undefined },
          terminal: options.terminal === true,
        },
        clientInfo: { name: "nova-acp-test", version: "1.0.0" },
      }),
    async close() {
      try {
        proc.stdin.end();
      } catch {
        // already closed
      }
      const code = await Promise.race([proc.exited, Bun.sleep(10000).then(() => -1)]);
      if (code === -1) proc.kill("SIGKILL");
      await stderrDone;
      if (!options.server) await server.close();
      return code;
    },
  };
}
