/**
 * An ACP prompt (content blocks) as the core's prompt: one text and its
 * images. Links to files become `@path` mentions the model can read with its
 * tools; embedded resources (editor selections, open buffers) are appended
 * as context with their uri, so the model knows where the text came from.
 */
import type { ImageContent } from "../core/messages.ts";
import { isSupportedImageType, validateImages } from "../tools/images.ts";
import { INVALID_PARAMS, RpcError } from "./errors.ts";
import type { ContentBlock } from "./params.ts";

export function promptInput(blocks: ContentBlock[]): { text: string; images: ImageContent[] } {
  let text = "";
  const context: string[] = [];
  const images: unknown[] = [];
  const add = (piece: string) => {
    text += text && !/\s$/.test(text) && !/^\s/.test(piece) ? ` ${piece}` : piece;
  };
  blocks.forEach((block, i) => {
    switch (block.type) {
      case "text":
        text += block.text;
        break;
      case "image":
        images.push({ type: "image", data: block.data, mimeType: block.mimeType });
        break;
      case "audio":
        throw new RpcError(INVALID_PARAMS, `Invalid params for session/prompt: prompt[${i}] is audio, which nova does not accept (promptCapabilities.audio is false)`);
      case "resource_link":
        add(mention(block.uri));
        break;
      case "resource": {
        const resource = block.resource;
        if ("text" in resource) context.push(`<context uri="${resource.uri}">\n${resource.text}\n</context>`);
        else if (resource.mimeType && isSupportedImageType(resource.mimeType)) images.push({ type: "image", data: resource.blob, mimeType: resource.mimeType });
        else context.push(`<context uri="${resource.uri}">[binary content${resource.mimeType ? ` (${resource.mimeType})` : ""} not shown]</context>`);
        break;
      }
    }
  });
  const checked = validateImages(images);
  if (!checked.ok) throw new RpcError(INVALID_PARAMS, `Invalid params for session/prompt: ${checked.error.replace(/^images/, "image blocks")}`);
  return { text: [text, ...context].filter((part) => part !== "").join("\n\n"), images: checked.images };
}

function mention(uri: string): string {
  if (!uri.startsWith("file://")) return uri;
  try {
    return `@${decodeURIComponent(new URL(uri).pathname)}`;
  } catch {
    return uri;
  }
}
