/**
 * One MCP server as nova keeps it: its connection state, the tools and
 * prompts it last listed, and the calls made through it. A server that
 * fails or goes away is never fatal: its tools answer with an error naming
 * it, and the next use starts it again, waiting longer after each failure.
 */
import type { McpServerSpec } from "../config/schema.ts";
import { connect, type Client, type StdioWrap } from "./connect.ts";
import type { McpCallResult } from "./results.ts";
import { McpCallError } from "./types.ts";

export type ServerState = "connecting" | "connected" | "failed" | "disabled";
export type ServerSource = "config" | "rpc" | "acp";

export interface RemoteTool {
  name: string;
  title?: string;
  description?: string;
  inputSchema: Record<string, unknown>;
  annotations?: { readOnlyHint?: boolean; title?: string };
  /** `taskSupport: "required"` tools answer only task-augmented calls, which nova does not make */
  execution?: { taskSupport?: string };
}

export interface RemotePrompt {
  name: string;
  title?: string;
  description?: string;
  arguments?: { name: string; description?: string; required?: boolean }[];
}

export interface ServerHooks {
  connectTimeoutMs: number;
  callTimeoutMs: number;
  /** state, error, tools or prompts changed */
  changed(server: McpServer): void;
  stderr(server: McpServer, line: string): void;
  /** stdio servers run in the OS sandbox (sandbox.mcp) */
  wrap?: StdioWrap;
}

export interface CallOptions {
  signal: AbortSignal;
  onProgress(progress: { progress: number; total?: number; message?: string }): void;
}

const MAX_BACKOFF_MS = 30_000;

export class McpServer {
  state: ServerState = "connecting";
  error: string | undefined;
  tools: RemoteTool[] = [];
  prompts: RemotePrompt[] = [];
  /** a run waited for this connection attempt and went on without it */
  waitExpired = false;
  private client: Client | undefined;
  private connecting: Promise<void> | undefined;
  private refreshing: Promise<void> | undefined;
  private failures = 0;
  private retryAt = 0;
  private closed = false;

  constructor(
    readonly name: string,
    readonly source: ServerSource,
    readonly scope: string | undefined,
    readonly spec: McpServerSpec,
    private readonly hooks: ServerHooks,
    disabledBecause?: string,
  ) {
    if (disabledBecause || !spec.enabled) {
      this.state = "disabled";
      this.error = disabledBecause;
    }
  }

  /** Announces the server's state and, unless it is disabled, starts connecting. */
  begin(): void {
    if (this.state === "disabled") this.hooks.changed(this);
    else this.start();
  }

  /** Resolves when the current connection attempt has ended either way. */
  settled(): Promise<void> {
    return this.connecting ?? Promise.resolve();
  }

  /** Resolves when a tools/list or prompts/list asked for by a list_changed notification has answered. */
  refreshed(): Promise<void> {
    return this.refreshing ?? Promise.resolve();
  }

  async callTool(tool: string, args: Record<string, unknown>, options: CallOptions): Promise<McpCallResult> {
    const client = await this.ready(`call ${tool}`);
    try {
      const result = (await client.callTool({ name: tool, arguments: args }, undefined, {
        signal: options.signal,
        timeout: this.hooks.callTimeoutMs,
        onprogress: options.onProgress,
      })) as McpCallResult;
      // a server that answers again is healthy: the next failure is retried at once
      this.failures = 0;
      return result;
    } catch (error) {
      if (options.signal.aborted) throw error;
      throw this.callError(`tools/call ${tool}`, error);
    }
  }

  async getPrompt(prompt: string, args: Record<string, string>) {
    const client = await this.ready(`get the prompt ${prompt}`);
    try {
      return await client.getPrompt({ name: prompt, arguments: args }, { timeout: this.hooks.callTimeoutMs });
    } catch (error) {
      throw this.callError(`prompts/get ${prompt}`, error);
    }
  }

  /**
   * Starts a failed server again once its backoff has passed, in the
   * background: a run does not wait for a server that failed before.
   */
  revive(): void {
    if (this.state !== "failed" || Date.now() < this.retryAt || this.closed) return;
    this.start();
    this.waitExpired = true;
  }

  async close(): Promise<void> {
    this.closed = true;
    const client = this.client;
    this.client = undefined;
    await client?.close().catch(() => {});
  }

  private start(): void {
    this.waitExpired = false;
    this.connecting = this.open().finally(() => (this.connecting = undefined));
  }

  private async open(): Promise<void> {
    this.set("connecting", undefined);
    let client: Client | undefined;
    try {
      client = await connect(this.spec, {
        timeoutMs: this.hooks.connectTimeoutMs,
        onStderr: (line) => this.hooks.stderr(this, line),
        onClose: () => this.lost(client),
        onToolsChanged: () => this.refresh(client, "tools"),
        onPromptsChanged: () => this.refresh(client, "prompts"),
        wrap: this.hooks.wrap,
      });
      if (this.closed) return void (await client.close());
      this.client = client;
      await Promise.all([this.list(client, "tools"), this.list(client, "prompts")]);
      this.set("connected", undefined);
    } catch (error) {
      if (client && this.client === client) this.client = undefined;
      await client?.close().catch(() => {});
      this.fail(this.connectError(error));
    }
  }

  /** The connected client, starting the server again when its backoff has passed. */
  private async ready(what: string): Promise<Client> {
    if (this.state === "disabled") throw new McpCallError(`MCP server "${this.name}" is disabled${this.error ? ` (${this.error})` : ""}, so nova cannot ${what}`);
    if (this.state === "failed" && Date.now() >= this.retryAt && !this.closed) this.start();
    await this.settled();
    if (this.client && this.state === "connected") return this.client;
    const wait = Math.max(0, this.retryAt - Date.now());
    const retry = wait > 0 ? `; nova starts it again on the next use after ${Math.ceil(wait / 1000)} s` : "; nova starts it again on the next use";
    throw new McpCallError(`MCP server "${this.name}" is not available (${this.error ?? "not connected"}), so nova could not ${what}${retry}`);
  }

  private lost(client: Client | undefined): void {
    if (!client || this.client !== client || this.closed) return;
    this.client = undefined;
    this.fail("command" in this.spec ? "the server process exited" : "the server closed the connection");
  }

  private fail(reason: string): void {
    this.retryAt = Date.now() + (this.failures === 0 ? 0 : Math.min(MAX_BACKOFF_MS, 1000 * 2 ** (this.failures - 1)));
    this.failures++;
    this.set("failed", reason);
  }

  private refresh(client: Client | undefined, kind: "tools" | "prompts"): void {
    if (!client || this.client !== client) return;
    const previous = this.refreshing ?? Promise.resolve();
    const next = previous
      .then(() => this.list(client, kind))
      .then(
        () => this.hooks.changed(this),
        (error) => this.hooks.stderr(this, `refreshing its ${kind} failed: ${(error as Error).message}`),
      );
    this.refreshing = next.finally(() => {
      if (this.refreshing === next) this.refreshing = undefined;
    });
  }

  private async list(client: Client, kind: "tools" | "prompts"): Promise<void> {
    const capabilities = client.getServerCapabilities() ?? {};
    if (!capabilities[kind]) return;
    const items: unknown[] = [];
    let cursor: string | undefined;
    do {
      const page: { nextCursor?: string; tools?: unknown[]; prompts?: unknown[] } =
        kind === "tools" ? await client.listTools(cursor ? { cursor } : undefined) : await client.listPrompts(cursor ? { cursor } : undefined);
      items.push(...((kind === "tools" ? page.tools : page.prompts) ?? []));
      cursor = page.nextCursor;
    } while (cursor);
    if (kind === "tools") this.tools = (items as RemoteTool[]).filter((tool) => tool.execution?.taskSupport !== "required");
    else this.prompts = items as RemotePrompt[];
  }

  private set(state: ServerState, error: string | undefined): void {
    this.state = state;
    this.error = error;
    this.hooks.changed(this);
  }

  private connectError(error: unknown): string {
    const message = (error as Error)?.message ?? String(error);
    if ((error as { code?: number })?.code === -32001) return `it did not answer initialize within ${this.hooks.connectTimeoutMs / 1000} s`;
    if ((error as { code?: string })?.code === "ENOENT") return `its command ${JSON.stringify((this.spec as { command: string }).command)} was not found`;
    return `it could not be started: ${message}`;
  }

  private callError(what: string, error: unknown): McpCallError {
    const code = (error as { code?: number })?.code;
    const message = (error as Error)?.message ?? String(error);
    if (code === -32001) {
      return new McpCallError(`MCP server "${this.name}" did not answer ${what} within ${this.hooks.callTimeoutMs / 1000} s; nova cancelled the call`);
    }
    if (code === -32000 || !this.client) return new McpCallError(`MCP server "${this.name}" went away during ${what} (${this.error ?? message})`);
    return new McpCallError(`MCP server "${this.name}" answered ${what} with an error: ${message}`);
  }
}
