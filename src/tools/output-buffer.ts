/**
 * The output of a shell command as the model gets it: the last MAX_LINES lines
 * / MAX_BYTES bytes kept in memory, everything spilled to a log file on disk
 * as soon as the output outgrows what will be shown.
 */
import type { FileSink } from "bun";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { MAX_BYTES, MAX_LINES } from "./limits.ts";

const ANSI = /\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[@-Z\\-_]/g;

export interface OutputTail {
  text: string;
  /** some of the output is not in `text` */
  truncated: boolean;
}

export class OutputBuffer {
  private chunks: Uint8Array[] = [];
  private retained = 0;
  private total = 0;
  private newlines = 0;
  private log: FileSink | undefined;
  /** where the whole output is, once it was too long to show */
  logPath: string | undefined;

  push(chunk: Uint8Array): void {
    this.chunks.push(chunk);
    this.retained += chunk.length;
    this.total += chunk.length;
    for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) this.newlines++;
    if (this.log) this.log.write(chunk);
    else if (this.total > MAX_BYTES || this.newlines > MAX_LINES) this.openLog();
    // Keep at least MAX_BYTES so the tail can always be cut from whole chunks.
    while (this.chunks.length > 1 && this.retained - this.chunks[0]!.length >= MAX_BYTES) {
      this.retained -= this.chunks.shift()!.length;
    }
  }

  private openLog(): void {
    this.logPath = join(tmpdir(), `nova-bash-${Date.now()}-${crypto.randomUUID().slice(0, 8)}.log`);
    this.log = Bun.file(this.logPath).writer();
    for (const c of this.chunks) this.log.write(c);
  }

  /** The last MAX_LINES lines within MAX_BYTES, ANSI escapes removed, CRLF as LF. */
  tail(): OutputTail {
    const all = this.chunks.length === 1 ? this.chunks[0]! : Buffer.concat(this.chunks, this.retained);
    const cutBytes = all.length > MAX_BYTES;
    let text = new TextDecoder().decode(cutBytes ? all.subarray(all.length - MAX_BYTES) : all);
    let truncated = this.total > all.length || cutBytes;
    // A cut may land inside a line (or a character); start at the next whole line.
    if (truncated) text = text.slice(text.indexOf("\n") + 1);
    text = text.replace(ANSI, "").replaceAll("\r\n", "\n");
    const lines = text.split("\n");
    const endsWithNewline = lines.at(-1) === "";
    if (endsWithNewline) lines.pop();
    if (lines.length > MAX_LINES) {
      truncated = true;
      text = lines.slice(-MAX_LINES).join("\n") + (endsWithNewline ? "\n" : "");
    }
    return { text, truncated };
  }

  /** Flushes the log file; call once the command is done. */
  async close(): Promise<void> {
    await this.log?.end();
  }
}
