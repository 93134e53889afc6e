/**
 * The shapes the MCP client hands up: structurally nova's tools and tool
 * results (agent/ takes them as they are), declared here so that mcp/ needs
 * nothing of tools/, its neighbour in the layer order.
 */
import type { ImageContent, TextContent } from "../core/messages.ts";

export interface McpResult {
  content: (TextContent | ImageContent)[];
  details?: unknown;
  isError?: boolean;
}

/** What a call gets from the loop: its abort signal, partial results, and the approval channel in use. */
export interface McpCallContext {
  signal: AbortSignal;
  onUpdate(partial: McpResult): void;
  askPermission?: (request: { toolName: string; kind: "mcp"; command: string; arguments?: Record<string, unknown> }, signal: AbortSignal) => Promise<boolean>;
}

export interface McpTool {
  name: string;
  label: string;
  description: string;
  parameters: Record<string, unknown>;
  /** false when the server says the tool only reads (readOnlyHint); plan mode refuses the others */
  mutating: boolean;
  /** a failure the model should see is an `isError` result; only an abort throws */
  execute(args: Record<string, unknown>, ctx: McpCallContext): Promise<McpResult>;
}

/** A failure a user can act on, naming the server: the model sees its message. */
export class McpCallError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "McpCallError";
  }
}
