/**
 * A tool touches the world and reports back. It never knows about RPC frames:
 * it gets its arguments (already validated against `parameters` by the caller),
 * a context, an abort signal and an `onUpdate` for streamed partial results.
 */
import type { ImageContent, TextContent } from "../core/messages.ts";
import type { HostServices } from "../host/services.ts";
import type { ShellOptions, ShellResult } from "./run-shell.ts";

export interface ToolResult {
  content: (TextContent | ImageContent)[];
  details?: unknown;
  isError?: boolean;
}

/**
 * Asked when a bash command matches a flagged rule (`reason`: why it was
 * flagged), or an MCP tool needs approval (`arguments`: the call's
 * arguments); resolves true to run it.
 */
export type PermissionAsker = (request: { toolName: string; command: string; reason?: string; arguments?: Record<string, unknown> }, signal: AbortSignal) => Promise<boolean>;

export interface ToolContext {
  /** the session cwd; relative paths resolve against it */
  cwd: string;
  signal: AbortSignal;
  /** replaces the partial result shown to the host (accumulated, not appended) */
  onUpdate: (partial: ToolResult) => void;
  /** present when a permission flow exists (rpc modes) */
  askPermission?: PermissionAsker;
  /** the front end has a UI (rpc-ui): bash runs without a PTY */
  hasUI: boolean;
  /** the model's id for this call */
  toolCallId?: string;
  /** what the front end offers beyond the local machine: dialogs, host URIs, todos, child agents */
  host?: HostServices;
  /** present when the host serves files itself (an ACP editor: unsaved buffers, edits shown as its own diffs) */
  fs?: ClientFs;
  /** present when the host runs commands in its own terminals (an ACP editor) */
  terminal?: ClientTerminal;
  /** what bash commands see about the session (agent/tool-env.ts) */
  env?: Record<string, string | undefined>;
}

/** Text files as the host sees them; paths are absolute. */
export interface ClientFs {
  readTextFile(path: string): Promise<string>;
  writeTextFile(path: string, content: string): Promise<void>;
}

/** Runs one command line in a host terminal; the same contract as runShell. */
export interface ClientTerminal {
  run(command: string, options: ShellOptions): Promise<ShellResult>;
}

/**
 * `execute` receives the raw arguments object the model sent; each tool parses it
 * with its own zod schema (and `parameters` is generated from that schema), so a
 * bad argument becomes a ToolError naming the field and the value.
 */
export interface Tool {
  name: string;
  label?: string;
  description: string;
  /** JSON Schema of the arguments object */
  parameters: Record<string, unknown>;
  /** may a call change files or the world? undefined (a host or MCP tool that did not say): assume it may */
  mutating?: boolean;
  execute(args: Record<string, unknown>, ctx: ToolContext): Promise<ToolResult>;
}

/** A tool failure the model should see as an error result, with a message it can act on. */
export class ToolError extends Error {
  constructor(
    message: string,
    readonly details?: unknown,
  ) {
    super(message);
    this.name = "ToolError";
  }
}
