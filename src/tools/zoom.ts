/**
 * `zoom`: crop a region of an image and magnify it, so small text or detail in
 * a screenshot becomes legible to the model. The result is always PNG, at most
 * 2048 px on its long side and 5 MiB.
 */
import { z } from "zod";
import { defineTool } from "./define.ts";
import { readImageFile } from "./image-file.ts";
import { MAX_IMAGE_BYTES } from "./images.ts";
import { formatBytes } from "./limits.ts";
import { resolvePath } from "./paths.ts";
import { loadSharp } from "./sharp-loader.ts";
import { ToolError } from "./types.ts";

const TARGET_LONG_SIDE = 1024;
const MAX_LONG_SIDE = 2048;
const MAX_SCALE = 8;

const schema = () =>
  z.object({
    path: z.string().describe("Path to a PNG, JPEG, GIF or WebP image"),
    x: z.number().min(0).describe("Left edge of the region, in pixels (or a fraction 0-1 of the width when x, y, width and height are all ≤ 1)"),
    y: z.number().min(0).describe("Top edge of the region, in pixels (or a fraction of the height)"),
    width: z.number().positive().describe("Region width, in pixels (or a fraction)"),
    height: z.number().positive().describe("Region height, in pixels (or a fraction)"),
    scale: z.number().positive().max(MAX_SCALE).optional().describe(`Magnification; default makes the region's long side ${TARGET_LONG_SIDE} px (between 1× and ${MAX_SCALE}×)`),
  });

export interface Region {
  left: number;
  top: number;
  width: number;
  height: number;
}

/** The region in whole source pixels; fractions when all four values are ≤ 1. Fails when it leaves the image. */
export function pixelRegion(args: { x: number; y: number; width: number; height: number }, imageWidth: number, imageHeight: number): Region {
  const fractional = args.x <= 1 && args.y <= 1 && args.width <= 1 && args.height <= 1;
  const [x, y, w, h] = fractional ? [args.x * imageWidth, args.y * imageHeight, args.width * imageWidth, args.height * imageHeight] : [args.x, args.y, args.width, args.height];
  const unit = fractional ? " (as fractions of the image)" : "";
  // A little slack for fractions that do not come out to whole pixels.
  if (x + w > imageWidth + 1e-6 || y + h > imageHeight + 1e-6) {
    throw new ToolError(`zoom: region x=${args.x} y=${args.y} width=${args.width} height=${args.height}${unit} reaches past the ${imageWidth}×${imageHeight} px image`);
  }
  const left = Math.floor(x);
  const top = Math.floor(y);
  const right = Math.min(imageWidth, Math.max(left + 1, Math.round(x + w)));
  const bottom = Math.min(imageHeight, Math.max(top + 1, Math.round(y + h)));
  return { left, top, width: right - left, height: bottom - top };
}

/** The requested scale, or one that brings the long side to 1024 px; never past 2048 px. */
export function outputScale(region: Region, requested: number | undefined): number {
  const longSide = Math.max(region.width, region.height);
  const scale = requested ?? Math.min(MAX_SCALE, Math.max(1, TARGET_LONG_SIDE / longSide));
  return Math.min(scale, MAX_LONG_SIDE / longSide);
}

export const zoomTool = defineTool({
  name: "zoom",
  mutating: false,
  description:
    "Crop a region of an image and magnify it to read small detail. Region in source pixels, or fractions 0-1 when all four values are ≤ 1. " +
    `Returns a PNG at most ${MAX_LONG_SIDE} px on its long side.`,
  schema,
  async run(args, ctx) {
    const image = await readImageFile("zoom", args.path, resolvePath(ctx.cwd, args.path));
    const sharp = await loadSharp();
    let meta: { width: number; height: number };
    try {
      meta = await sharp(image.bytes).metadata();
    } catch (err) {
      throw new ToolError(`zoom: ${args.path} could not be decoded: ${(err as Error).message}`);
    }
    const region = pixelRegion(args, meta.width, meta.height);
    let scale = outputScale(region, args.scale);
    for (;;) {
      const outWidth = Math.max(1, Math.round(region.width * scale));
      const outHeight = Math.max(1, Math.round(region.height * scale));
      const png = await sharp(image.bytes)
        .extract(region)
        .resize(outWidth, outHeight, { kernel: scale >= 1 ? "nearest" : "lanczos3", fit: "fill" })
        .png({ compressionLevel: 9 })
        .toBuffer();
      if (png.length <= MAX_IMAGE_BYTES || (outWidth === 1 && outHeight === 1)) {
        const text =
          `Zoomed ${args.path} (${meta.width}×${meta.height}): region ${region.width}×${region.height} at (${region.left}, ${region.top}), ` +
          `${+scale.toFixed(2)}× → ${outWidth}×${outHeight} PNG, ${formatBytes(png.length)}`;
        return {
          content: [
            { type: "text", text },
            { type: "image", data: png.toString("base64"), mimeType: "image/png" },
          ],
          details: { region, scale, width: outWidth, height: outHeight },
        };
      }
      // Too many bytes for an attachment: shrink until it fits.
      scale *= 0.75;
    }
  },
});
