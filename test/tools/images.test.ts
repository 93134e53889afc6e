import { describe, expect, test } from "bun:test";
import { MAX_IMAGE_BYTES, sniffImageType, validateImages } from "../../src/tools/images.ts";

const MAGIC = {
  png: [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a],
  jpeg: [0xff, 0xd8, 0xff, 0xe0],
  gif: [...Buffer.from("GIF89a")],
  webp: [...Buffer.from("RIFF"), 0, 0, 0, 0, ...Buffer.from("WEBPVP8 ")],
};

function bytes(magic: number[], size = 32): Buffer {
  const b = Buffer.alloc(size);
  b.set(magic);
  return b;
}

const b64 = (magic: number[], size?: number) => bytes(magic, size).toString("base64");
const png = { type: "image", data: b64(MAGIC.png), mimeType: "image/png" };

function errorOf(images: unknown[]): string {
  const result = validateImages(images);
  if (result.ok) throw new Error("expected a rejection");
  return result.error;
}

describe("sniffImageType", () => {
  test("recognises the four formats by magic bytes", () => {
    expect(sniffImageType(bytes(MAGIC.png))).toBe("image/png");
    expect(sniffImageType(bytes(MAGIC.jpeg))).toBe("image/jpeg");
    expect(sniffImageType(bytes(MAGIC.gif))).toBe("image/gif");
    expect(sniffImageType(bytes([...Buffer.from("GIF87a")]))).toBe("image/gif");
    expect(sniffImageType(bytes(MAGIC.webp))).toBe("image/webp");
  });

  test("anything else is undefined", () => {
    expect(sniffImageType(Buffer.from("hello world, not an image"))).toBeUndefined();
    expect(sniffImageType(bytes([...Buffer.from("RIFF"), 0, 0, 0, 0, ...Buffer.from("WAVE")]))).toBeUndefined();
    expect(sniffImageType(new Uint8Array([0x89, 0x50]))).toBeUndefined();
  });
});

describe("validateImages", () => {
  test("accepts the four formats and normalises mime_type to mimeType", () => {
    const result = validateImages([
      png,
      { type: "image", data: b64(MAGIC.jpeg), mime_type: "image/jpeg" },
      { type: "image", data: b64(MAGIC.gif), mimeType: "image/gif" },
      { data: b64(MAGIC.webp), mimeType: "image/webp" },
    ]);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.images[1]).toEqual({ type: "image", data: b64(MAGIC.jpeg), mimeType: "image/jpeg" });
    expect(result.images.map((i) => i.mimeType)).toEqual(["image/png", "image/jpeg", "image/gif", "image/webp"]);
  });

  test("each rejection names the index and the problem", () => {
    expect(errorOf([png, "nope"])).toBe('images[1] must be an object {type:"image", data, mimeType}, got "nope"');
    expect(errorOf([{ ...png, type: "text" }])).toBe('images[0].type must be "image", got "text"');
    expect(errorOf([{ type: "image", data: png.data }])).toBe("images[0].mimeType must be a string, got nothing");
    expect(errorOf([png, png, { ...png, mimeType: "text/plain" }])).toBe('images[2].mimeType must be an image/* type, got "text/plain"');
    expect(errorOf([{ ...png, mimeType: "image/bmp" }])).toBe('images[0].mimeType "image/bmp" is not supported; use one of image/png, image/jpeg, image/gif, image/webp');
    expect(errorOf([{ ...png, data: 42 }])).toBe("images[0].data must be a base64 string, got number");
    expect(errorOf([{ ...png, data: "" }])).toBe("images[0].data is empty");
    expect(errorOf([{ ...png, mimeType: "image/jpeg" }])).toBe("images[0].mimeType says image/jpeg but the data is image/png data");
    expect(errorOf([{ ...png, data: Buffer.from("plain text!!").toString("base64") }])).toBe(
      "images[0].mimeType says image/png but the data is data that is not a PNG, JPEG, GIF or WebP image",
    );
  });

  test("strict base64", () => {
    const data = png.data;
    expect(errorOf([{ ...png, data: `${data.slice(0, 8)}\n${data.slice(8)}` }])).toContain("images[0].data is not valid base64");
    expect(errorOf([{ ...png, data: `${data.slice(0, 4)}*${data.slice(5)}` }])).toBe('images[0].data is not valid base64: unexpected character "*" at offset 4');
    expect(errorOf([{ ...png, data: data.slice(0, -1) }])).toContain("is not a multiple of 4");
    expect(errorOf([{ ...png, data: `${data.slice(0, 8)}=${data.slice(9)}` }])).toContain('unexpected character "="');
    expect(errorOf([{ ...png, data: "iVBORw0KGgp=" }])).toBe("images[0].data is not valid base64: non-zero bits before the padding");
    expect(errorOf([{ ...png, data: "iVBORw0KGgo===" }])).toContain("not a multiple of 4");
    expect(validateImages([{ ...png, data: "iVBORw0KGgo=" }]).ok).toBe(true);
  });

  test("exactly 16 images pass, 17 do not", () => {
    expect(validateImages(Array(16).fill(png)).ok).toBe(true);
    expect(errorOf(Array(17).fill(png))).toBe("at most 16 images per message, got 17");
  });

  test("exactly 5 MiB decoded passes, one byte more does not", () => {
    expect(MAX_IMAGE_BYTES).toBe(5 * 1024 * 1024);
    const exact = { ...png, data: b64(MAGIC.png, MAX_IMAGE_BYTES) };
    expect(validateImages([exact]).ok).toBe(true);
    const over = { ...png, data: b64(MAGIC.png, MAX_IMAGE_BYTES + 1) };
    expect(errorOf([png, over])).toBe("images[1] is 5242881 bytes decoded; each image may be at most 5242880 bytes (5 MiB)");
  });
});
