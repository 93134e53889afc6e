/**
 * The only writer of stdout. Each frame is one JSON.stringify + "\n", written
 * whole and in order. `send` reports false once the pipe pushes back, and
 * `drained()` lets producers (the event relay) wait, so a slow host makes
 * nova wait instead of buffering without bound; no frame is ever dropped.
 *
 * While the host keeps up, the streamed deltas (message_update frames, which
 * wire/event-frame.ts serialises itself) of one turn of the event loop go out
 * as one write, at most FLUSH_BYTES of them: one system call per batch instead
 * of one per delta. Every other frame, and every frame once the pipe pushes
 * back, is written as it comes (after the deltas before it), and counted.
 */

/** A frame already serialised (by wire/event-frame.ts): its text is written as it is. */
export class Serialized {
  constructor(readonly json: string) {}
}

type RawWrite = (chunk: string, cb?: (err?: Error | null) => void) => boolean;

/** How much may wait for a blocked host before nova stops reading its input (`backlogged`). */
export const BACKLOG_FRAMES = 1000;
export const BACKLOG_BYTES = 4 * 1024 * 1024;
/**
 * Frames waiting for the end of the event loop's turn are written at once past
 * this: below stdout's 64 KiB high-water mark, since a write that reaches it
 * reports the pipe full even when the pipe took it all.
 */
const FLUSH_BYTES = 32 * 1024;

export class FrameWriter {
  private blocked = false;
  private waiters: (() => void)[] = [];
  /** frames and bytes written since the pipe pushed back */
  private queuedFrames = 0;
  private queuedBytes = 0;
  /** frames not written yet: they go out together at the end of this turn of the event loop */
  private pending = "";
  private pendingFrames = 0;
  private scheduled = false;

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
  }

  /** Writes one frame; false means the host is behind and the caller should await `drained()`. */
  send(frame: object): boolean {
    if (!(frame instanceof Serialized) || this.blocked) {
      // anything but a streamed delta goes out at once, after the deltas before it
      this.writePending();
      const line = (frame instanceof Serialized ? frame.json : JSON.stringify(frame)) + "\n";
      this.write(line, 1);
      return !this.blocked;
    }
    this.pending += frame.json + "\n";
    this.pendingFrames++;
    if (this.pending.length >= FLUSH_BYTES) this.writePending();
    else if (!this.scheduled) {
      this.scheduled = true;
      setImmediate(this.writePending);
    }
    return !this.blocked;
  }

  private readonly writePending = (): void => {
    this.scheduled = false;
    if (this.pendingFrames === 0) return;
    const chunk = this.pending;
    const frames = this.pendingFrames;
    this.pending = "";
    this.pendingFrames = 0;
    this.write(chunk, frames);
  };

  private write(chunk: string, frames: number): void {
    if (!this.rawWrite.call(this.out, chunk)) this.blocked = true;
    if (this.blocked) {
      this.queuedFrames += frames;
      this.queuedBytes += chunk.length;
    }
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
