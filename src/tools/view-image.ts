/** `view_image`: attach an image file so the model can look at it. */
import { z } from "zod";
import { defineTool } from "./define.ts";
import { readImageFile } from "./image-file.ts";
import { MAX_IMAGE_BYTES } from "./images.ts";
import { formatBytes } from "./limits.ts";
import { resolvePath } from "./paths.ts";
import { type Sharp, SharpUnavailableError, loadSharp } from "./sharp-loader.ts";
import { ToolError } from "./types.ts";

const schema = () =>
  z.object({
    path: z.string().describe("Path to a PNG, JPEG, GIF or WebP image (relative to the cwd or absolute)"),
  });

export const viewImageTool = defineTool({
  name: "view_image",
  mutating: false,
  label: "view image",
  description: "Look at an image file (PNG, JPEG, GIF, WebP; at most 5 MiB). Use zoom to look closely at part of it.",
  schema,
  async run(args, ctx) {
    const image = await readImageFile("view_image", args.path, resolvePath(ctx.cwd, args.path));
    if (image.bytes.length > MAX_IMAGE_BYTES) {
      throw new ToolError(`view_image: ${args.path} is ${formatBytes(image.bytes.length)}, over the 5 MiB limit; use zoom to look at a region`);
    }
    const size = await dimensions(image.bytes, args.path);
    const sizeText = size ? `${size.width}×${size.height} px, ` : "";
    return {
      content: [
        { type: "text", text: `Image ${args.path} [${image.mimeType}, ${sizeText}${formatBytes(image.bytes.length)}]` },
        { type: "image", data: Buffer.from(image.bytes).toString("base64"), mimeType: image.mimeType },
      ],
      details: { ...size, mimeType: image.mimeType },
    };
  },
});

/** The pixel size is a nicety: without sharp on this platform the image is still attached, just without it. */
async function dimensions(bytes: Uint8Array, shown: string): Promise<{ width: number; height: number } | undefined> {
  let sharp: Sharp;
  try {
    sharp = await loadSharp();
  } catch (err) {
    if (err instanceof SharpUnavailableError) return undefined;
    throw err;
  }
  try {
    const { width, height } = await sharp(bytes).metadata();
    return { width, height };
  } catch (err) {
    throw new ToolError(`view_image: ${shown} could not be decoded: ${(err as Error).message}`);
  }
}
