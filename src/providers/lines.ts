/**
 * Splits a byte stream into text lines for the SSE and NDJSON parsers.
 * A streaming TextDecoder keeps multi-byte characters intact across chunks;
 * a line ends at `\r\n`, `\r` or `\n`, even when `\r` and `\n` arrive in
 * different chunks. A line longer than one chunk is collected as parts and
 * joined once, so long lines cost no repeated concatenation. The lines of one
 * chunk come as one batch (`readLineBatches`): one await per chunk, not per
 * line, which is most of what parsing a stream of small events costs.
 */

export async function* readLines(body: ReadableStream<Uint8Array>): AsyncGenerator<string> {
  for await (const batch of readLineBatches(body)) yield* batch;
}

/** The complete lines of each chunk, in order (a batch may be empty). */
export async function* readLineBatches(body: ReadableStream<Uint8Array>): AsyncGenerator<string[]> {
  // one regex per stream: its lastIndex is state, and streams interleave at every yield
  const lineEnd = /\r\n|\r|\n/g;
  const decoder = new TextDecoder();
  const partial: string[] = [];
  let skipLeadingLf = false;
  const reader = body.getReader();
  try {
    while (true) {
      const { done, value } = await reader.read();
      let text = done ? decoder.decode() : decoder.decode(value, { stream: true });
      if (skipLeadingLf && text.length > 0) {
        if (text.charCodeAt(0) === 10) text = text.slice(1);
        skipLeadingLf = false;
      }
      let start = 0;
      const lines: string[] = [];
      lineEnd.lastIndex = 0;
      for (let m = lineEnd.exec(text); m !== null; m = lineEnd.exec(text)) {
        const piece = text.slice(start, m.index);
        if (partial.length > 0) {
          partial.push(piece);
          lines.push(partial.join(""));
          partial.length = 0;
        } else {
          lines.push(piece);
        }
        start = lineEnd.lastIndex;
        // a lone `\r` at the end may be the first half of `\r\n`
        if (m[0] === "\r" && start === text.length) skipLeadingLf = true;
      }
      if (start < text.length) partial.push(text.slice(start));
      if (done) {
        if (partial.length > 0) lines.push(partial.join(""));
        yield lines;
        break;
      }
      yield lines;
    }
  } finally {
    // the consumer may stop early: tell the server we want no more bytes
    reader.cancel().catch(() => {});
  }
}
