/**
 * The cap on one streamed line (SSE or NDJSON): counted on the raw bytes as
 * they pass, so a line without LF costs at most `maxLineBytes` however long
 * the provider keeps sending. (The error body's cap is in errors.ts.)
 */
import { ProviderFailure } from "./errors.ts";

/** The default for config `stream.maxLineBytes`. */
export const DEFAULT_MAX_LINE_BYTES = 16 * 1024 * 1024;

const LF = 0x0a;
const CR = 0x0d;

export function lineTooLong(maxLineBytes: number): ProviderFailure {
  return new ProviderFailure({
    message: `the provider sent a line longer than ${formatBytes(maxLineBytes)} (stream.maxLineBytes); the response was abandoned`,
    retryable: false,
  });
}

/** Passes chunks through and errors once the bytes since the last line end exceed `maxLineBytes`. */
export function withLineCap(body: ReadableStream<Uint8Array>, maxLineBytes: number): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  let open = 0;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const { done, value } = await reader.read();
      if (done) return controller.close();
      const end = Math.max(value.lastIndexOf(LF), value.lastIndexOf(CR));
      // the bytes before the last line end may form a long line (only possible when there are enough of them)
      const closedTooLong = end !== -1 && open + end > maxLineBytes && longestLine(value, end) > maxLineBytes;
      open = end === -1 ? open + value.length : value.length - end - 1;
      if (open > maxLineBytes || closedTooLong) {
        reader.cancel().catch(() => {});
        throw lineTooLong(maxLineBytes);
      }
      controller.enqueue(value);
    },
    cancel(reason) {
      return reader.cancel(reason);
    },
  });

  /** the longest line inside `chunk[0..end]`, counting the open line carried from earlier chunks */
  function longestLine(chunk: Uint8Array, end: number): number {
    let longest = 0;
    let start = 0;
    let carried = open;
    for (let i = 0; i <= end; i++) {
      const b = chunk[i];
      if (b !== LF && b !== CR) continue;
      longest = Math.max(longest, carried + i - start);
      carried = 0;
      start = i + 1;
    }
    return longest;
  }
}

export function formatBytes(n: number): string {
  if (n % (1024 * 1024) === 0) return `${n / (1024 * 1024)} MiB`;
  if (n % 1024 === 0) return `${n / 1024} KiB`;
  return `${n} bytes`;
}
