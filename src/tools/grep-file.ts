/**
 * One file as grep reads it, shared by the grep tool and its workers
 * (grep-worker.ts): the bytes, or why it is not searched.
 */
import { closeSync, fstatSync, openSync, readSync } from "node:fs";
import { SNIFF_BYTES, hasNulByte } from "./limits.ts";

/** Bigger files are left out rather than turned into one huge string. */
export const MAX_FILE_BYTES = 100 * 1024 * 1024;

/** Most files fit: one read into this buffer, and only a bigger one is measured and read whole. */
const FIRST_READ = 64 * 1024;
const first = Buffer.allocUnsafe(FIRST_READ);

/**
 * The file's bytes; "binary" judged by its first bytes, before the rest is
 * read; undefined when unreadable. A file that one read of FIRST_READ bytes
 * does not fill has ended (a regular file reads short only at its end), so
 * most files cost open, read and close; a bigger one is measured (fstat) and
 * read up to that size.
 */
function readSearchable(abs: string): Buffer | { tooBig: number } | "binary" | undefined {
  let fd: number;
  try {
    fd = openSync(abs, "r");
  } catch {
    return undefined;
  }
  try {
    const head = readSync(fd, first, 0, FIRST_READ, 0);
    const binary = hasNulByte(first.subarray(0, Math.min(head, SNIFF_BYTES)));
    if (head < FIRST_READ) return binary ? "binary" : Buffer.from(first.subarray(0, head));
    const size = fstatSync(fd).size;
    if (size > MAX_FILE_BYTES) return { tooBig: size };
    if (binary) return "binary";
    const bytes = Buffer.allocUnsafe(Math.max(size, head));
    first.copy(bytes, 0, 0, head);
    let got = head;
    while (got < bytes.length) {
      const n = readSync(fd, bytes, got, bytes.length - got, got);
      if (n === 0) break;
      got += n;
    }
    return bytes.subarray(0, got);
  } catch {
    return undefined;
  } finally {
    closeSync(fd);
  }
}

/** What a search needs to know of a pattern, passed to workers as it is. */
export interface PatternSpec {
  source: string;
  flags: string;
  /** the pattern's own bytes when it is a case-sensitive literal: a file without them is not decoded at all */
  literal?: string;
}

/** The text grep searches: CRLF read as LF, so `$` and line numbers mean the same in every file. */
function searchText(bytes: Buffer): string {
  const text = bytes.toString("utf8");
  return text.includes("\r\n") ? text.replaceAll("\r\n", "\n") : text;
}

/** The searchable text of a file that has a match, else undefined (cheap for a file without the literal). */
export function filePrefilter(spec: PatternSpec): (bytes: Buffer) => string | undefined {
  const regex = new RegExp(spec.source, spec.flags);
  const needle = spec.literal === undefined ? undefined : Buffer.from(spec.literal);
  return (bytes) => {
    if (needle && bytes.indexOf(needle) === -1) return undefined;
    const text = searchText(bytes);
    regex.lastIndex = 0;
    return regex.test(text) ? text : undefined;
  };
}

/** A file of a batch that has a match (its searchable text) or is too big to search. */
export interface FileFound {
  index: number;
  text?: string;
  tooBig?: number;
}

/** The files of a batch that matter to the search, by their index in it. */
export function searchBatch(test: (bytes: Buffer) => string | undefined, files: string[]): FileFound[] {
  const found: FileFound[] = [];
  for (const [index, abs] of files.entries()) {
    const bytes = readSearchable(abs);
    if (bytes === undefined || bytes === "binary") continue;
    if (!Buffer.isBuffer(bytes)) found.push({ index, tooBig: bytes.tooBig });
    else {
      const text = test(bytes);
      if (text !== undefined) found.push({ index, text });
    }
  }
  return found;
}
