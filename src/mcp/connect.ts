/**
 * Opens one MCP client session with the official SDK. This file is the only
 * one that loads the SDK, and only through dynamic imports, so a nova with
 * no MCP server configured never pays for it.
 */
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { McpServerSpec } from "../config/schema.ts";
import { versionInfo } from "../cli/version.ts";

export type { Client };

export interface ConnectOptions {
  /** initialize must be answered within this many ms */
  timeoutMs: number;
  /** one line of the server's stderr, without its LF */
  onStderr(line: string): void;
  /** the connection ended (process exit, HTTP stream closed) */
  onClose(): void;
  onToolsChanged(): void;
  onPromptsChanged(): void;
}

/**
 * Connects and initializes. A URL without a pinned `type` tries streamable
 * HTTP first and falls back to the legacy SSE transport, as the MCP
 * specification tells clients that support both to do.
 */
export async function connect(spec: McpServerSpec, options: ConnectOptions): Promise<Client> {
  const sdk = await loadSdk();
  if ("command" in spec) return open(sdk, await stdio(sdk, spec, options), options);
  const url = new URL(spec.url);
  const requestInit = spec.headers ? { headers: spec.headers } : undefined;
  if (spec.type === "sse") return open(sdk, new sdk.SSEClientTransport(url, { requestInit }), options);
  try {
    return await open(sdk, new sdk.StreamableHTTPClientTransport(url, { requestInit }), options);
  } catch (error) {
    if (spec.type === "http" || !(error instanceof sdk.StreamableHTTPError)) throw error;
    try {
      return await open(sdk, new sdk.SSEClientTransport(url, { requestInit }), options);
    } catch (sseError) {
      throw new Error(`${(error as Error).message}; the legacy SSE transport failed too: ${(sseError as Error).message}`);
    }
  }
}

type Sdk = Awaited<ReturnType<typeof loadSdk>>;

async function loadSdk() {
  const [client, stdioModule, http, sse, types] = await Promise.all([
    import("@modelcontextprotocol/sdk/client/index.js"),
    import("@modelcontextprotocol/sdk/client/stdio.js"),
    import("@modelcontextprotocol/sdk/client/streamableHttp.js"),
    import("@modelcontextprotocol/sdk/client/sse.js"),
    import("@modelcontextprotocol/sdk/types.js"),
  ]);
  return {
    Client: client.Client,
    StdioClientTransport: stdioModule.StdioClientTransport,
    getDefaultEnvironment: stdioModule.getDefaultEnvironment,
    StreamableHTTPClientTransport: http.StreamableHTTPClientTransport,
    StreamableHTTPError: http.StreamableHTTPError,
    SSEClientTransport: sse.SSEClientTransport,
    ToolListChanged: types.ToolListChangedNotificationSchema,
    PromptListChanged: types.PromptListChangedNotificationSchema,
  };
}

async function open(sdk: Sdk, transport: Transport, options: ConnectOptions): Promise<Client> {
  const client = new sdk.Client({ name: "nova", version: versionInfo().version }, { capabilities: {} });
  client.setNotificationHandler(sdk.ToolListChanged, () => options.onToolsChanged());
  client.setNotificationHandler(sdk.PromptListChanged, () => options.onPromptsChanged());
  try {
    await client.connect(transport, { timeout: options.timeoutMs });
  } catch (error) {
    await client.close().catch(() => {});
    throw error;
  }
  client.onclose = () => options.onClose();
  return client;
}

/**
 * A child process with the SDK's safe default environment (PATH, HOME, …, not
 * nova's API keys) plus what the spec adds; its stderr is passed on line by
 * line so the caller can prefix it, and never reaches stdout.
 */
async function stdio(sdk: Sdk, spec: Extract<McpServerSpec, { command: string }>, options: ConnectOptions): Promise<Transport> {
  const transport = new sdk.StdioClientTransport({
    command: spec.command,
    args: spec.args,
    env: { ...sdk.getDefaultEnvironment(), ...spec.env },
    cwd: spec.cwd,
    stderr: "pipe",
  });
  let pending = "";
  transport.stderr?.on("data", (chunk: Buffer) => {
    const lines = (pending + chunk.toString("utf8")).split("\n");
    pending = lines.pop() ?? "";
    for (const line of lines) options.onStderr(line);
  });
  transport.stderr?.on("end", () => {
    if (pending) options.onStderr(pending);
    pending = "";
  });
  return transport;
}
