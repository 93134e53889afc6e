/**
 * Incremental newline-delimited JSON parser: one JSON value per line, blank
 * lines skipped. A line that is not JSON throws, naming the line number and
 * its start, because a half-parsed stream must never pass as a complete one.
 */
import { readLines } from "./lines.ts";

export async function* parseNdjson(body: ReadableStream<Uint8Array>): AsyncGenerator<unknown> {
  let lineNumber = 0;
  for await (const line of readLines(body)) {
    lineNumber++;
    if (line.trim().length === 0) continue;
    yield parseLine(line, lineNumber);
  }
}

function parseLine(line: string, lineNumber: number): unknown {
  try {
    return JSON.parse(line);
  } catch (e) {
    const start = line.length > 80 ? `${line.slice(0, 80)}…` : line;
    throw new SyntaxError(`NDJSON line ${lineNumber} is not valid JSON (${(e as Error).message}): ${start}`);
  }
}
