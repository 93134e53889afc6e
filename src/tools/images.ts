/**
 * Image attachments as every provider accepts them: four formats, strict base64,
 * bytes that really are the format claimed, bounded count and size. Checked on
 * arrival so a bad attachment is refused with a reason instead of failing later
 * at a provider, or inflating every request that re-sends it.
 */
import type { ImageContent } from "../core/messages.ts";
import { imageMimeTypes, type ImageMimeType } from "../core/enums.ts";

export { type ImageMimeType } from "../core/enums.ts";
export const IMAGE_MIME_TYPES = imageMimeTypes;
export const MAX_IMAGES = 16;
export const MAX_IMAGE_BYTES = 5 * 1024 * 1024;

const BASE64_ALPHABET = /^[A-Za-z0-9+/]*$/;
const BASE64_VALUES = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/** The image format of `bytes` by its magic number, or undefined when it is none of the four. */
export function sniffImageType(bytes: Uint8Array): ImageMimeType | undefined {
  const at = (i: number, ...values: number[]) => values.every((v, k) => bytes[i + k] === v);
  if (at(0, 0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)) return "image/png";
  if (at(0, 0xff, 0xd8, 0xff)) return "image/jpeg";
  if (at(0, 0x47, 0x49, 0x46, 0x38) && (bytes[4] === 0x37 || bytes[4] === 0x39) && bytes[5] === 0x61) return "image/gif";
  if (at(0, 0x52, 0x49, 0x46, 0x46) && at(8, 0x57, 0x45, 0x42, 0x50)) return "image/webp";
  return undefined;
}

export function isSupportedImageType(mime: string): mime is ImageMimeType {
  return (IMAGE_MIME_TYPES as readonly string[]).includes(mime);
}

export type ImageValidation = { ok: true; images: ImageContent[] } | { ok: false; error: string };

export function validateImages(images: unknown[]): ImageValidation {
  if (images.length > MAX_IMAGES) {
    return { ok: false, error: `at most ${MAX_IMAGES} images per message, got ${images.length}` };
  }
  const valid: ImageContent[] = [];
  for (let i = 0; i < images.length; i++) {
    const result = validateImage(images[i], `images[${i}]`);
    if (typeof result === "string") return { ok: false, error: result };
    valid.push(result);
  }
  return { ok: true, images: valid };
}

function validateImage(value: unknown, name: string): ImageContent | string {
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    return `${name} must be an object {type:"image", data, mimeType}, got ${describe(value)}`;
  }
  const entry = value as Record<string, unknown>;
  if (entry.type !== undefined && entry.type !== "image") {
    return `${name}.type must be "image", got ${describe(entry.type)}`;
  }
  const mimeType = entry.mimeType ?? entry.mime_type;
  if (typeof mimeType !== "string") return `${name}.mimeType must be a string, got ${describe(mimeType)}`;
  if (!mimeType.startsWith("image/")) {
    return `${name}.mimeType must be an image/* type, got ${JSON.stringify(mimeType)}`;
  }
  if (!isSupportedImageType(mimeType)) {
    return `${name}.mimeType ${JSON.stringify(mimeType)} is not supported; use one of ${IMAGE_MIME_TYPES.join(", ")}`;
  }
  const data = entry.data;
  if (typeof data !== "string") return `${name}.data must be a base64 string, got ${describe(data)}`;
  if (data.length === 0) return `${name}.data is empty`;
  const base64Problem = checkBase64(data);
  if (base64Problem) return `${name}.data is not valid base64: ${base64Problem}`;
  const size = decodedLength(data);
  if (size > MAX_IMAGE_BYTES) {
    return `${name} is ${size} bytes decoded; each image may be at most ${MAX_IMAGE_BYTES} bytes (5 MiB)`;
  }
  const actual = sniffImageType(Buffer.from(data.slice(0, 16), "base64"));
  if (actual !== mimeType) {
    const found = actual ? `${actual} data` : "data that is not a PNG, JPEG, GIF or WebP image";
    return `${name}.mimeType says ${mimeType} but the data is ${found}`;
  }
  return { type: "image", data, mimeType };
}

/** Strict RFC 4648: only the alphabet, length a multiple of 4, at most two `=` at the end, zero pad bits. */
function checkBase64(data: string): string | undefined {
  if (data.length % 4 !== 0) return `length ${data.length} is not a multiple of 4`;
  const padding = data.endsWith("==") ? 2 : data.endsWith("=") ? 1 : 0;
  const body = data.slice(0, data.length - padding);
  if (!BASE64_ALPHABET.test(body)) {
    const bad = body.search(/[^A-Za-z0-9+/]/);
    return `unexpected character ${JSON.stringify(body[bad])} at offset ${bad}`;
  }
  if (padding > 0) {
    const last = BASE64_VALUES.indexOf(body[body.length - 1]!);
    if ((last & (padding === 2 ? 0x0f : 0x03)) !== 0) return "non-zero bits before the padding";
  }
  return undefined;
}

function decodedLength(data: string): number {
  const padding = data.endsWith("==") ? 2 : data.endsWith("=") ? 1 : 0;
  return (data.length / 4) * 3 - padding;
}

function describe(value: unknown): string {
  if (value === undefined) return "nothing";
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  return typeof value === "string" ? JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value) : typeof value;
}
