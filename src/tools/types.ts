/**
 * A tool touches the world and reports back. It never knows about RPC frames:
 * it gets its arguments (already validated against `parameters` by the caller),
 * a context, an abort signal and an `onUpdate` for streamed partial results.
 */
import type { ImageContent, TextContent } from "../core/messages.ts";
import type { PermissionKind } from "../core/enums.ts";
import type { HostServices } from "../host/services.ts";
import type { ShellOptions, ShellResult } from "./run-shell.ts";

export interface ToolResult {
  content: (TextContent | ImageContent)[];
  details?: unknown;
  isError?: boolean;
}

/** One question about one tool call (docs/permissions.md). */
export interface PermissionQuestion {
  toolName: string;
  /** what runs, as one line: the bash command line, `write <path>`, an MCP tool with its arguments */
  command: string;
  /** why it was flagged */
  reason?: string;
  /** an MCP or host tool call's arguments, for the host to show */
  arguments?: Record<string, unknown>;
  /** the model's id for the call; filled in by the loop when the tool leaves it out */
  toolCallId?: string;
  kind?: PermissionKind;
  /** write/edit: the target, absolute, symlinks resolved */
  path?: string;
  /** write/edit: a unified diff of the change, capped */
  diff?: string;
  /** set when a sub-agent asks */
  agentId?: string;
  /** every reason is a file change inside the cwd (acceptEdits runs it unasked); never sent to the host */
  confinable?: boolean;
}

/**
 * Asked when a call needs the user's approval (a flagged bash command, an MCP
 * tool, a write outside the cwd, …); resolves true to run it. A question
 * withdrawn before an answer rejects with a ToolError saying so.
 */
export type PermissionAsker = (request: PermissionQuestion, signal: AbortSignal) => Promise<boolean>;

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
