/**
 * An MCP `tools/call` or `prompts/get` answer in nova's content model: text
 * stays text, images become nova's image block, embedded resources become
 * text, and what cannot be shown to a model is named instead of dropped.
 */
import { imageMimeTypes } from "../core/enums.ts";
import type { McpResult } from "./types.ts";

type Block = McpResult["content"][number];

/** The content block kinds of the MCP specification (2025-06-18), loosely typed: servers send what they send. */
export interface McpBlock {
  type: string;
  text?: string;
  data?: string;
  mimeType?: string;
  uri?: string;
  name?: string;
  resource?: { uri?: string; mimeType?: string; text?: string; blob?: string };
}

export interface McpCallResult {
  content?: McpBlock[];
  structuredContent?: unknown;
  isError?: boolean;
  /** the pre-2025 result shape */
  toolResult?: unknown;
}

export function toToolResult(result: McpCallResult, server: string): McpResult {
  const content = (result.content ?? []).map(toBlock);
  if (content.length === 0 && result.toolResult !== undefined) content.push({ type: "text", text: JSON.stringify(result.toolResult) });
  if (content.length === 0 && result.structuredContent !== undefined) content.push({ type: "text", text: JSON.stringify(result.structuredContent) });
  if (content.length === 0) content.push({ type: "text", text: "(no output)" });
  const details: Record<string, unknown> = { server };
  if (result.structuredContent !== undefined) details.structuredContent = result.structuredContent;
  return { content, details, ...(result.isError === true ? { isError: true } : {}) };
}

export function toBlock(block: McpBlock): Block {
  switch (block.type) {
    case "text":
      return { type: "text", text: block.text ?? "" };
    case "image":
      if (block.data && block.mimeType && (imageMimeTypes as readonly string[]).includes(block.mimeType)) return { type: "image", data: block.data, mimeType: block.mimeType };
      return { type: "text", text: `[image of type ${block.mimeType ?? "unknown"}, ${base64Bytes(block.data)} bytes, not shown: only PNG, JPEG, GIF and WebP reach the model]` };
    case "audio":
      return { type: "text", text: `[audio of type ${block.mimeType ?? "unknown"}, ${base64Bytes(block.data)} bytes, not shown]` };
    case "resource": {
      const r = block.resource ?? {};
      if (typeof r.text === "string") return { type: "text", text: `[resource ${r.uri ?? ""}${r.mimeType ? ` (${r.mimeType})` : ""}]\n${r.text}` };
      return { type: "text", text: `[binary resource ${r.uri ?? ""} (${r.mimeType ?? "unknown type"}), ${base64Bytes(r.blob)} bytes, not shown]` };
    }
    case "resource_link":
      return { type: "text", text: `[resource link ${block.uri ?? ""}${block.name ? ` "${block.name}"` : ""}${block.mimeType ? ` (${block.mimeType})` : ""}]` };
    default:
      return { type: "text", text: `[content of type ${JSON.stringify(block.type)} not shown]` };
  }
}

function base64Bytes(data: string | undefined): number {
  if (!data) return 0;
  const padding = data.endsWith("==") ? 2 : data.endsWith("=") ? 1 : 0;
  return Math.floor((data.length * 3) / 4) - padding;
}
