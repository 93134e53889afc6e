/** The text of content blocks, for the places that read a message as plain text. */
import type { ImageContent, TextContent, ThinkingContent, ToolCall } from "./messages.ts";

type Block = TextContent | ImageContent | ThinkingContent | ToolCall;

/**
 * The text blocks' text joined by `separator`; other blocks are skipped. The
 * separator is the caller's: "" rebuilds what the model streamed as one text,
 * "\n" keeps separate blocks on separate lines, " " makes a one-line title.
 */
export function blockText(content: string | readonly Block[], separator = ""): string {
  if (typeof content === "string") return content;
  let text = "";
  let first = true;
  for (const block of content) {
    if (block.type !== "text") continue;
    text += first ? block.text : separator + block.text;
    first = false;
  }
  return text;
}
