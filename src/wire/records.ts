/**
 * One record of the byte path decoded: LF-scanned bytes → UTF-8 → JSON. Both
 * front ends read their input here and decide only what each outcome is called
 * in their own protocol.
 */
import { LfScanner, MAX_RECORD_BYTES, type ScanItem } from "./lf-scanner.ts";

export type DecodedRecord =
  /** spaces, tabs and line ends only: skipped, not an error */
  | { kind: "blank" }
  | { kind: "object"; value: Record<string, unknown> }
  /** valid JSON that is not an object (null, an array, a string, …) */
  | { kind: "not_object"; value: unknown }
  | { kind: "parse_error"; reason: "oversize" | "utf8" | "json"; message: string };

const decoder = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false });

export function decodeRecord(item: ScanItem): DecodedRecord {
  if (item.kind === "oversize") return { kind: "parse_error", reason: "oversize", message: `record exceeds 8 MiB limit (${item.bytes} bytes)` };
  if (isBlank(item.bytes)) return { kind: "blank" };
  let text: string;
  try {
    text = decoder.decode(item.bytes);
  } catch {
    return { kind: "parse_error", reason: "utf8", message: "record is not valid UTF-8" };
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { kind: "parse_error", reason: "json", message: (error as Error).message };
  }
  if (value === null || typeof value !== "object" || Array.isArray(value)) return { kind: "not_object", value };
  return { kind: "object", value: value as Record<string, unknown> };
}

/**
 * The records of `input` until it closes, decoded. The next chunk is read only
 * once the consumer has taken every record of the last one, so a consumer that
 * awaits each record holds the reading back; so does `afterChunk` when it
 * returns a promise (a front end whose output is backed up).
 */
export async function* readRecords(input: ReadableStream<Uint8Array>, afterChunk?: () => Promise<void> | undefined): AsyncGenerator<DecodedRecord> {
  const scanner = new LfScanner(MAX_RECORD_BYTES);
  const items: ScanItem[] = [];
  const collect = (item: ScanItem) => items.push(item);
  for await (const chunk of input) {
    scanner.push(chunk, collect);
    yield* take(items);
    await afterChunk?.();
  }
  scanner.end(collect);
  yield* take(items);
}

function* take(items: ScanItem[]): Generator<DecodedRecord> {
  for (const item of items) yield decodeRecord(item);
  items.length = 0;
}

function isBlank(bytes: Uint8Array): boolean {
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i];
    if (b !== 0x20 && b !== 0x09 && b !== 0x0d && b !== 0x0a) return false;
  }
  return true;
}
