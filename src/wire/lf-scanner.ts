/**
 * Splits a byte stream into records on LF (0x0A) only. It knows nothing about
 * JSON or UTF-8: U+2028/U+2029 are multi-byte sequences without 0x0A, so they
 * can never split a record. A record that lies inside one chunk is handed out
 * as a view of that chunk (no copy); only a record spanning chunks is joined.
 * A record longer than the cap is dropped while it streams past, so memory
 * stays bounded by the cap however long the line is.
 */

export const MAX_RECORD_BYTES = 8 * 1024 * 1024;

const LF = 0x0a;
const CR = 0x0d;

export type ScanItem = { kind: "record"; bytes: Uint8Array } | { kind: "oversize"; bytes: number };

export class LfScanner {
  private parts: Uint8Array[] = [];
  private pending = 0;
  /** bytes of the record being discarded; -1 when not discarding */
  private discarded = -1;
  private lastByte = 0;

  constructor(private readonly max = MAX_RECORD_BYTES) {}

  /** Feeds one chunk; calls `emit` for every record it completes. */
  push(chunk: Uint8Array, emit: (item: ScanItem) => void): void {
    let start = 0;
    const n = chunk.length;
    while (start < n) {
      const lf = chunk.indexOf(LF, start);
      const end = lf === -1 ? n : lf;
      if (end > start) {
        this.take(chunk, start, end);
        this.lastByte = chunk[end - 1]!;
      }
      if (lf === -1) return;
      this.finish(emit);
      start = lf + 1;
    }
  }

  /** End of input: a final record without LF still counts. */
  end(emit: (item: ScanItem) => void): void {
    if (this.pending > 0 || this.discarded > 0) this.finish(emit);
  }

  private take(chunk: Uint8Array, start: number, end: number): void {
    const len = end - start;
    if (this.discarded >= 0) {
      this.discarded += len;
      return;
    }
    // one byte of slack for a trailing CR that does not count against the cap
    if (this.pending + len > this.max + 1) {
      this.discarded = this.pending + len;
      this.parts = [];
      this.pending = 0;
      return;
    }
    this.parts.push(chunk.subarray(start, end));
    this.pending += len;
  }

  private finish(emit: (item: ScanItem) => void): void {
    const cr = this.lastByte === CR ? 1 : 0;
    if (this.discarded >= 0) {
      const size = this.discarded - cr;
      this.discarded = -1;
      this.lastByte = 0;
      if (size > this.max) emit({ kind: "oversize", bytes: size });
      return;
    }
    const size = this.pending - cr;
    const parts = this.parts;
    this.parts = [];
    this.pending = 0;
    this.lastByte = 0;
    if (size > this.max) {
      emit({ kind: "oversize", bytes: size });
      return;
    }
    if (size <= 0) return;
    emit({ kind: "record", bytes: join(parts, size) });
  }
}

function join(parts: Uint8Array[], size: number): Uint8Array {
  if (parts.length === 1) return parts[0]!.subarray(0, size);
  const out = new Uint8Array(size);
  let offset = 0;
  for (const part of parts) {
    const take = Math.min(part.length, size - offset);
    out.set(take === part.length ? part : part.subarray(0, take), offset);
    offset += take;
    if (offset === size) break;
  }
  return out;
}
