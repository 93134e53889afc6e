/**
 * The only writer of stdout. Each frame is one JSON.stringify + "\n", written
 * whole and in order. `send` reports false once the pipe pushes back, and
 * `drained()` lets producers (the event relay) wait, so a slow host makes
 * nova wait instead of buffering without bound; no frame is ever dropped.
 */

type RawWrite = (chunk: string, cb?: (err?: Error | null) => void) => boolean;

/** How much may wait for a blocked host before nova stops reading its input (`backlogged`). */
export const BACKLOG_FRAMES = 1000;
export const BACKLOG_BYTES = 4 * 1024 * 1024;

export class FrameWriter {
  private blocked = false;
  private waiters: (() => void)[] = [];
  /** frames and bytes written since the pipe pushed back */
  private queuedFrames = 0;
  private queuedBytes = 0;

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
    const line = JSON.stringify(frame) + "\n";
    if (!this.rawWrite.call(this.out, line)) this.blocked = true;
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
