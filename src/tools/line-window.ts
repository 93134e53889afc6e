/**
 * Reads a window of lines out of a file of any size by streaming its bytes:
 * lines before the window are only counted, lines inside are decoded one by
 * one, and nothing is ever held as one big string.
 */
import { MAX_LINE_CHARS } from "./limits.ts";

export interface LineWindow {
  /** decoded lines of the window, `\r` and a leading BOM removed */
  lines: string[];
  /** 1-based number of the first line in `lines` */
  first: number;
  /** lines in the whole file */
  totalLines: number;
  /** the window stopped early because of the byte cap */
  cutByBytes: boolean;
}

interface WindowOptions {
  /** 1-based */
  offset: number;
  limit: number;
  maxBytes: number;
  signal?: AbortSignal;
}

const NEWLINE = 0x0a;

export async function readLineWindow(path: string, opts: WindowOptions): Promise<LineWindow> {
  const decoder = new TextDecoder("utf-8", { ignoreBOM: true });
  const lines: string[] = [];
  const first = opts.offset;
  const last = opts.offset + opts.limit - 1;
  let lineNo = 1;
  let bytesTaken = 0;
  let cutByBytes = false;
  const taking = () => lineNo >= first && lineNo <= last && !cutByBytes;
  /** pieces of the current line when it is inside the window, bounded by MAX_LINE_CHARS*4 bytes */
  let pieces: Uint8Array[] = [];
  let pieceBytes = 0;
  let lineBytes = 0;
  let sawAnyByte = false;
  let endsWithNewline = false;

  const finishLine = () => {
    if (taking()) {
      const text = decodeLine(decoder, pieces, pieceBytes, lineBytes, lineNo === 1);
      const size = Buffer.byteLength(text) + 1;
      if (bytesTaken + size > opts.maxBytes && lines.length > 0) cutByBytes = true;
      else {
        lines.push(text);
        bytesTaken += size;
      }
    }
    if (pieces.length > 0) pieces = [];
    pieceBytes = 0;
    lineBytes = 0;
    lineNo++;
  };

  const keep = (chunk: Uint8Array) => {
    lineBytes += chunk.length;
    const room = MAX_LINE_CHARS * 4 - pieceBytes;
    if (room <= 0 || !taking()) return;
    const part = chunk.length > room ? chunk.subarray(0, room) : chunk;
    pieces.push(part.slice());
    pieceBytes += part.length;
  };

  for await (const chunk of Bun.file(path).stream()) {
    opts.signal?.throwIfAborted();
    if (chunk.length === 0) continue;
    sawAnyByte = true;
    let start = 0;
    for (;;) {
      const nl = chunk.indexOf(NEWLINE, start);
      if (nl === -1) {
        if (start < chunk.length) keep(chunk.subarray(start));
        break;
      }
      if (nl > start) keep(chunk.subarray(start, nl));
      finishLine();
      start = nl + 1;
    }
    endsWithNewline = chunk[chunk.length - 1] === NEWLINE;
  }
  // A final line without a newline still counts; an empty file has no lines.
  if (sawAnyByte && !endsWithNewline) finishLine();
  return { lines, first, totalLines: lineNo - 1, cutByBytes };
}

function decodeLine(decoder: TextDecoder, pieces: Uint8Array[], pieceBytes: number, lineBytes: number, stripBom: boolean): string {
  const bytes = pieces.length === 1 ? pieces[0]! : Buffer.concat(pieces, pieceBytes);
  let text = decoder.decode(bytes);
  if (stripBom && text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  if (pieceBytes < lineBytes) return `${text.slice(0, MAX_LINE_CHARS)}… [line cut: ${lineBytes} bytes]`;
  if (text.endsWith("\r")) text = text.slice(0, -1);
  if (text.length > MAX_LINE_CHARS) return `${text.slice(0, MAX_LINE_CHARS)}… [line cut: ${lineBytes} bytes]`;
  return text;
}
