/** Reading an image file for the image tools, with errors that say what is wrong with it. */
import { type ImageMimeType, sniffImageType } from "./images.ts";
import { SNIFF_BYTES } from "./limits.ts";
import { statPath } from "./paths.ts";
import { ToolError } from "./types.ts";

export interface ImageFile {
  bytes: Uint8Array;
  mimeType: ImageMimeType;
}

export async function readImageFile(tool: string, shown: string, path: string): Promise<ImageFile> {
  const info = await statPath(tool, shown, path);
  if (!info.isFile()) throw new ToolError(`${tool}: ${shown} is not a file`);
  const mimeType = sniffImageType(await Bun.file(path).slice(0, SNIFF_BYTES).bytes());
  if (!mimeType) throw new ToolError(`${tool}: ${shown} is not a PNG, JPEG, GIF or WebP image`);
  return { bytes: await Bun.file(path).bytes(), mimeType };
}
