/** `read`: a window of numbered lines from a text file, or an image as an attachment. */
import { z } from "zod";
import { defineTool } from "./define.ts";
import { MAX_IMAGE_BYTES, sniffImageType } from "./images.ts";
import { MAX_BYTES, MAX_LINES, MAX_LINE_CHARS, SNIFF_BYTES, formatBytes, hasNulByte } from "./limits.ts";
import { type LineWindow, readLineWindow } from "./line-window.ts";
import { resolvePath, statPath } from "./paths.ts";
import { toLF } from "./text-style.ts";
import { ToolError, type ToolContext, type ToolResult } from "./types.ts";
import type { TextContent } from "../core/messages.ts";
import type { UriReadResult } from "../host/services.ts";

const schema = () =>
  z.object({
    path: z.string().describe("Path to the file to read (relative to the cwd or absolute)"),
    offset: z.number().int().min(1).optional().describe("Line number to start reading from (1-based)"),
    limit: z.number().int().min(1).optional().describe(`Maximum number of lines to read (default ${MAX_LINES})`),
  });

export const readTool = defineTool({
  name: "read",
  mutating: false,
  description:
    `Read a file. Text comes back as numbered lines, at most ${MAX_LINES} lines or ${MAX_BYTES / 1024} KB per call; ` +
    "use offset/limit to page through larger files. Images (png, jpeg, gif, webp) come back as an attachment.",
  schema,
  async run(args, ctx) {
    const offset = args.offset ?? 1;
    const limit = args.limit ?? MAX_LINES;
    if (ctx.host?.uris?.schemeOf(args.path)) return readHostUri(args.path, offset, limit, ctx);
    const path = resolvePath(ctx.cwd, args.path);
    const info = await statPath("read", args.path, path);
    if (info.isDirectory()) throw new ToolError(`read: ${args.path} is a directory; use ls to list it`);
    const head = await Bun.file(path).slice(0, SNIFF_BYTES).bytes();
    const imageType = sniffImageType(head);
    if (imageType) {
      if (info.size > MAX_IMAGE_BYTES) {
        throw new ToolError(`read: ${args.path} is a ${formatBytes(info.size)} image, over the 5 MiB attachment limit; use zoom to look at a region`);
      }
      const data = Buffer.from(await Bun.file(path).arrayBuffer()).toString("base64");
      return {
        content: [
          { type: "text", text: `Read image ${args.path} [${imageType}, ${formatBytes(info.size)}]` },
          { type: "image", data, mimeType: imageType },
        ],
      };
    }
    if (hasNulByte(head)) {
      throw new ToolError(`read: ${args.path} is a binary file (${formatBytes(info.size)}); it cannot be shown as text`);
    }
    const window = ctx.fs ? textWindow(await ctx.fs.readTextFile(path), offset, limit) : await readLineWindow(path, { offset, limit, maxBytes: MAX_BYTES, signal: ctx.signal });
    return numbered(args.path, window, offset);
  },
});

/** A `<scheme>://` path the host serves (set_host_uri_schemes): its text, paged like a file's. */
async function readHostUri(url: string, offset: number, limit: number, ctx: ToolContext): Promise<ToolResult> {
  let served: UriReadResult;
  try {
    served = await ctx.host!.uris!.read(url, ctx.signal);
  } catch (error) {
    throw new ToolError(`read: ${url}: ${(error as Error).message}`);
  }
  const result = numbered(url, textWindow(served.content, offset, limit), offset);
  const notes = served.notes?.length ? `\n\n[Notes from the host: ${served.notes.join("; ")}]` : "";
  const first = result.content[0] as TextContent;
  return {
    content: [{ type: "text", text: first.text + notes }],
    details: { ...(result.details as object), url, contentType: served.contentType, immutable: served.immutable, notes: served.notes },
  };
}

/** Numbered lines with a note on how to read on when the window stops before the end. */
function numbered(shown: string, window: LineWindow, offset: number): ToolResult {
  if (window.totalLines === 0) return { content: [{ type: "text", text: `${shown} is empty` }] };
  if (offset > window.totalLines) {
    throw new ToolError(`read: offset ${offset} is beyond the end of ${shown} (${window.totalLines} lines)`);
  }
  const lastShown = offset + window.lines.length - 1;
  const width = String(lastShown).length;
  const body = window.lines.map((line, i) => `${String(offset + i).padStart(width)}\t${line}`).join("\n");
  const more = window.totalLines - lastShown;
  const note =
    more > 0
      ? `\n\n[Showing lines ${offset}-${lastShown} of ${window.totalLines}${window.cutByBytes ? ` (${MAX_BYTES / 1024} KB limit)` : ""}. Use offset=${lastShown + 1} to continue.]`
      : "";
  return {
    content: [{ type: "text", text: body + note }],
    details: { totalLines: window.totalLines, firstLine: offset, lastLine: lastShown },
  };
}

/** The same window as readLineWindow, over text the host served (an editor buffer); long lines are cut alike. */
function textWindow(text: string, offset: number, limit: number): LineWindow {
  const all = toLF(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text).split("\n");
  if (all.at(-1) === "") all.pop();
  const lines: string[] = [];
  let bytes = 0;
  for (const line of all.slice(offset - 1, offset - 1 + limit)) {
    const size = Buffer.byteLength(line) + 1;
    if (bytes + size > MAX_BYTES && lines.length > 0) return { lines, first: offset, totalLines: all.length, cutByBytes: true };
    lines.push(line.length > MAX_LINE_CHARS ? `${line.slice(0, MAX_LINE_CHARS)}… [line cut: ${size - 1} bytes]` : line);
    bytes += size;
  }
  return { lines, first: offset, totalLines: all.length, cutByBytes: false };
}
