/**
 * The only writer of stdout. Each frame is one JSON.stringify + "\n", written
 * whole and in order. `send` reports false once the pipe pushes back, and
 * `drained()` lets producers (the event relay) wait, so a slow host makes
 * nova wait instead of buffering without bound; no frame is ever dropped.
 *
 * Frames sent in one turn of the event loop leave in one write (joined at
 * the end of the turn, or at once past COALESCE_BYTES): a streamed answer
 * sends a frame per delta, and one write per frame was most of the relay's
 * CPU. Order is kept; `flush()` and the process's exit write what waits.
 */

type RawWrite = (chunk: string, cb?: (err?: Error | null) => void) => boolean;

/** How much may wait for a blocked host before nova stops reading its input (`backlogged`). */
export const BACKLOG_FRAMES = 1000;
export const BACKLOG_BYTES = 4 * 1024 * 1024;
/** What may wait for the end of the turn before it is written at once. */
const COALESCE_BYTES = 64 * 1024;

export class FrameWriter {
  private blocked = false;
  private waiters: (() => void)[] = [];
  /** frames and bytes written since the pipe pushed back */
  private queuedFrames = 0;
  private queuedBytes = 0;
  /** frames of this turn, not yet written */
  private pending: string[] = [];
  private pendingBytes = 0;
  private scheduled = false;
  private readonly writePending = () => {
    this.scheduled = false;
    if (this.pending.length === 0) return;
    const chunk = this.pending.length === 1 ? this.pending[0]! : this.pending.join("");
    this.pending = [];
    this.pendingBytes = 0;
    if (!this.rawWrite.call(this.out, chunk)) this.blocked = true;
  };

  constructor(
    private readonly out: NodeJS.WriteStream,
    private readonly rawWrite: RawWrite,
  ) {
    out.on("drain", () => {
      this.blocked = false;
      this.queuedFrames = 0;
      this.queuedBytes = 0;
      const waiters = this.waiters;
      this.waiters = [];
      for (const wake of waiters) wake();
    });
    // a host that closes its end of stdout must not crash nova
    out.on("error", () => {});
    // an exit inside the turn (a second Ctrl-C) still writes the turn's frames
    process.on("exit", this.writePending);
  }

  /** Writes one frame; false means the host is behind and the caller should await `drained()`. */
  send(frame: object): boolean {
    const line = JSON.stringify(frame) + "\n";
    this.pending.push(line);
    this.pendingBytes += line.length;
    if (this.pendingBytes >= COALESCE_BYTES) this.writePending();
    else if (!this.scheduled) {
      this.scheduled = true;
      setImmediate(this.writePending);
    }
    if (this.blocked) {
      this.queuedFrames++;
      this.queuedBytes += line.length;
    }
    return !this.blocked;
  }

  /**
   * True while the host is behind by BACKLOG_FRAMES frames or BACKLOG_BYTES:
   * the input side then waits for `drained()`, so a host that keeps writing
   * without reading blocks on its own pipe instead of growing nova.
   */
  backlogged(): boolean {
    return this.blocked && (this.queuedFrames >= BACKLOG_FRAMES || this.queuedBytes >= BACKLOG_BYTES);
  }

  /** undefined while the host keeps up, so the relay does not pay a promise per delta */
  drained(): Promise<void> | undefined {
    if (!this.blocked) return undefined;
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  /** Resolves once everything written so far has left the process. */
  async flush(): Promise<void> {
    this.writePending();
    await this.drained();
    await new Promise<void>((resolve) => this.rawWrite.call(this.out, "", () => resolve()));
  }
}

/**
 * Takes stdout away from everyone but the frame writer: console output and
 * stray `process.stdout.write` calls (libraries, child tools) go to stderr.
 */
export function claimStdout(): FrameWriter {
  const out = process.stdout;
  const rawWrite = out.write as RawWrite;
  const toStderr = ((chunk: string | Uint8Array, ...rest: unknown[]) =>
    (process.stderr.write as (c: string | Uint8Array, ...r: unknown[]) => boolean)(chunk, ...rest)) as typeof out.write;
  out.write = toStderr;
  const log = (...args: unknown[]) => {
    process.stderr.write(args.map((a) => (typeof a === "string" ? a : Bun.inspect(a))).join(" ") + "\n");
  };
  console.log = log;
  console.info = log;
  console.debug = log;
  return new FrameWriter(out, rawWrite);
}
