import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import sharp from "sharp";
import type { ImageContent } from "../../src/core/messages.ts";
import { viewImageTool } from "../../src/tools/view-image.ts";
import { toolContext } from "./context.ts";

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "nova-view-"));
  const base = sharp({ create: { width: 64, height: 48, channels: 3, background: { r: 10, g: 200, b: 30 } } });
  await base.clone().png().toFile(join(dir, "a.png"));
  await base.clone().jpeg().toFile(join(dir, "a.jpg"));
  await base.clone().webp().toFile(join(dir, "a.webp"));
  await writeFile(join(dir, "a.txt"), "text");
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe("view_image", () => {
  for (const [file, mime] of [
    ["a.png", "image/png"],
    ["a.jpg", "image/jpeg"],
    ["a.webp", "image/webp"],
  ] as const) {
    test(`${file}: a text block then the file itself as an image block`, async () => {
      const result = await viewImageTool.execute({ path: file }, toolContext(dir));
      expect((result.content[0] as { text: string }).text).toContain("64×48 px");
      const image = result.content[1] as ImageContent;
      expect(image.mimeType).toBe(mime);
      expect(image.data).toBe((await readFile(join(dir, file))).toString("base64"));
      const meta = await sharp(Buffer.from(image.data, "base64")).metadata();
      expect([meta.width, meta.height]).toEqual([64, 48]);
    });
  }

  test("a non-image and a missing file are refused", async () => {
    expect((await viewImageTool.execute({ path: "a.txt" }, toolContext(dir)).catch((e) => e)).message).toContain("is not a PNG");
    expect((await viewImageTool.execute({ path: "b.png" }, toolContext(dir)).catch((e) => e)).message).toContain("does not exist");
  });
});
