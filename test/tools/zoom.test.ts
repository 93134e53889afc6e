import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import sharp from "sharp";
import type { ImageContent } from "../../src/core/messages.ts";
import type { ToolResult } from "../../src/tools/types.ts";
import { outputScale, pixelRegion, zoomTool } from "../../src/tools/zoom.ts";
import { toolContext } from "./context.ts";

const RED = [255, 0, 0];
const GREEN = [0, 255, 0];
const BLUE = [0, 0, 255];
const WHITE = [255, 255, 255];

/** A width×height RGB image whose quadrants are red, green / blue, white. */
function quadrants(width: number, height: number): Buffer {
  const raw = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const colour = y < height / 2 ? (x < width / 2 ? RED : GREEN) : x < width / 2 ? BLUE : WHITE;
      raw.set(colour, (y * width + x) * 3);
    }
  }
  return raw;
}

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "nova-zoom-"));
  const source = sharp(quadrants(400, 300), { raw: { width: 400, height: 300, channels: 3 } });
  await source.clone().png().toFile(join(dir, "q.png"));
  await source.clone().jpeg({ quality: 95 }).toFile(join(dir, "q.jpg"));
  await source.clone().webp({ quality: 90 }).toFile(join(dir, "q.webp"));
  await sharp(quadrants(3000, 200), { raw: { width: 3000, height: 200, channels: 3 } })
    .png()
    .toFile(join(dir, "wide.png"));
  await writeFile(join(dir, "notes.txt"), "not an image");
});
afterAll(() => rm(dir, { recursive: true, force: true }));

const zoom = (args: Record<string, unknown>) => zoomTool.execute(args, toolContext(dir));

async function decoded(result: ToolResult) {
  const image = result.content[1] as ImageContent;
  expect(image.mimeType).toBe("image/png");
  const { data, info } = await sharp(Buffer.from(image.data, "base64")).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height };
}

/** Mean colour of a decoded image. */
function mean(data: Buffer): number[] {
  const sums = [0, 0, 0];
  for (let i = 0; i < data.length; i += 3) for (let c = 0; c < 3; c++) sums[c]! += data[i + c]!;
  return sums.map((s) => s / (data.length / 3));
}

function everyPixel(data: Buffer, colour: number[]): boolean {
  for (let i = 0; i < data.length; i += 3) if (data[i] !== colour[0] || data[i + 1] !== colour[1] || data[i + 2] !== colour[2]) return false;
  return true;
}

describe("zoom", () => {
  test("a pixel region is cropped and magnified to a 1024 px long side", async () => {
    const result = await zoom({ path: "q.png", x: 200, y: 0, width: 200, height: 150 });
    expect(result.content[0]!.type).toBe("text");
    const img = await decoded(result);
    expect([img.width, img.height]).toEqual([1024, 768]);
    expect(everyPixel(img.data, GREEN)).toBe(true);
  });

  test("fractions select the same kind of region", async () => {
    const img = await decoded(await zoom({ path: "q.png", x: 0, y: 0.5, width: 0.5, height: 0.5 }));
    expect([img.width, img.height]).toEqual([1024, 768]);
    expect(everyPixel(img.data, BLUE)).toBe(true);
  });

  test("a region across a boundary keeps the boundary where it was", async () => {
    const img = await decoded(await zoom({ path: "q.png", x: 190, y: 140, width: 20, height: 20, scale: 2 }));
    expect([img.width, img.height]).toEqual([40, 40]);
    const at = (x: number, y: number) => [...img.data.subarray((y * 40 + x) * 3, (y * 40 + x) * 3 + 3)];
    expect(at(0, 0)).toEqual(RED);
    expect(at(39, 0)).toEqual(GREEN);
    expect(at(0, 39)).toEqual(BLUE);
    expect(at(39, 39)).toEqual(WHITE);
    expect(at(19, 19)).toEqual(RED);
    expect(at(20, 20)).toEqual(WHITE);
  });

  test("tiny regions are magnified at most 8×", async () => {
    const img = await decoded(await zoom({ path: "q.png", x: 300, y: 200, width: 10, height: 10 }));
    expect([img.width, img.height]).toEqual([80, 80]);
    expect(everyPixel(img.data, WHITE)).toBe(true);
  });

  test("the long side never passes 2048 px", async () => {
    const img = await decoded(await zoom({ path: "wide.png", x: 0, y: 0, width: 3000, height: 200 }));
    expect(img.width).toBe(2048);
    expect(img.height).toBe(137);
  });

  test("a result over 5 MiB is shrunk until it fits", async () => {
    const side = 1400;
    const noise = Buffer.alloc(side * side * 3);
    // xorshift32: noise that PNG cannot compress, from a fixed seed
    let state = 2463534242;
    for (let i = 0; i < noise.length; i++) {
      state ^= state << 13;
      state ^= state >>> 17;
      state ^= state << 5;
      noise[i] = state & 0xff;
    }
    await sharp(noise, { raw: { width: side, height: side, channels: 3 } })
      .png({ compressionLevel: 1 })
      .toFile(join(dir, "noise.png"));
    const result = await zoom({ path: "noise.png", x: 0, y: 0, width: side, height: side });
    const image = result.content[1] as ImageContent;
    expect(Buffer.from(image.data, "base64").length).toBeLessThanOrEqual(5 * 1024 * 1024);
    const img = await decoded(result);
    expect(img.width).toBeLessThan(side);
    expect(img.width).toBe(img.height);
  });

  test("JPEG and WebP sources", async () => {
    const jpeg = await decoded(await zoom({ path: "q.jpg", x: 20, y: 20, width: 128, height: 128 }));
    expect([jpeg.width, jpeg.height]).toEqual([1024, 1024]);
    const [r, g, b] = mean(jpeg.data);
    expect(r).toBeGreaterThan(240);
    expect(g! + b!).toBeLessThan(30);
    const webp = await decoded(await zoom({ path: "q.webp", x: 250, y: 200, width: 100, height: 50, scale: 3 }));
    expect([webp.width, webp.height]).toEqual([300, 150]);
    expect(Math.min(...mean(webp.data))).toBeGreaterThan(240);
  });

  test("out-of-bounds regions and non-images are refused clearly", async () => {
    expect((await zoom({ path: "q.png", x: 350, y: 0, width: 100, height: 10 }).catch((e) => e)).message).toContain("reaches past the 400×300 px image");
    expect((await zoom({ path: "q.png", x: 0.6, y: 0, width: 0.5, height: 0.5 }).catch((e) => e)).message).toContain("as fractions");
    expect((await zoom({ path: "notes.txt", x: 0, y: 0, width: 1, height: 1 }).catch((e) => e)).message).toContain("is not a PNG, JPEG, GIF or WebP image");
    expect((await zoom({ path: "q.png", x: 0, y: 0, width: 0, height: 1 }).catch((e) => e)).message).toContain("width");
  });
});

describe("region and scale", () => {
  test("pixel and fraction regions", () => {
    expect(pixelRegion({ x: 10, y: 20, width: 30, height: 40 }, 100, 100)).toEqual({ left: 10, top: 20, width: 30, height: 40 });
    expect(pixelRegion({ x: 0.25, y: 0.5, width: 0.5, height: 0.25 }, 200, 100)).toEqual({ left: 50, top: 50, width: 100, height: 25 });
    expect(() => pixelRegion({ x: 90, y: 0, width: 20, height: 5 }, 100, 100)).toThrow("reaches past");
  });

  test("default scale aims at 1024 px, between 1× and 8×", () => {
    expect(outputScale({ left: 0, top: 0, width: 256, height: 100 }, undefined)).toBe(4);
    expect(outputScale({ left: 0, top: 0, width: 50, height: 10 }, undefined)).toBe(8);
    expect(outputScale({ left: 0, top: 0, width: 1500, height: 10 }, undefined)).toBe(1);
    expect(outputScale({ left: 0, top: 0, width: 1000, height: 10 }, 4)).toBeCloseTo(2.048);
  });
});
