/**
 * The only writer of stdout. Each frame is one JSON.stringify + "\n", written
 * whole and in order. `send` reports false once the pipe pushes back, and
 * `drained()` lets producers (the event relay) wait, so a slow host makes
 * nova wait instead of buffering without bound; no frame is ever dropped.
 */

type RawWrite = (chunk: string, cb?: (err?: Error | null) => void) => boolean;

export class FrameWriter {
  private blocked = false;
  private waiters: (() => void)[] = [];

  constructor(private readonly out: NodeJS.WriteStream, private readonly rawWrite: RawWrite) {
    out.on("drain", () => {
      this.blocked = false;
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
    return !this.blocked;
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
