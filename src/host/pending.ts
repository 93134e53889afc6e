/**
 * Requests nova makes of its host (tool calls, URI reads, UI dialogs) and the
 * replies that settle them, matched by id. A reply for an unknown id is
 * ignored; once the host can no longer answer (stdin closed) every pending
 * request fails at once, and so does every new one.
 */
/** Why a request to the host failed once stdin closed; the words a tool result shows. */
export const HOST_GONE = "the host is gone (it closed stdin), so it can no longer answer";

export class HostGone extends Error {
  constructor(reason: string) {
    super(reason);
    this.name = "HostGone";
  }
}

interface Pending<R> {
  resolve(reply: R): void;
  reject(error: Error): void;
  onUpdate?(update: unknown): void;
}

export class PendingRequests<R> {
  private readonly pending = new Map<string, Pending<R>>();
  private next = 1;
  private gone: string | undefined;

  constructor(private readonly prefix: string) {}

  /**
   * Opens a request: `send(id)` writes it. An abort rejects it and calls
   * `cancel(id)` so the host can stop working on it.
   */
  open(
    send: (id: string) => void,
    options: { signal?: AbortSignal; cancel?: (id: string) => void; onUpdate?: (update: unknown) => void } = {},
  ): Promise<R> {
    if (this.gone) return Promise.reject(new HostGone(this.gone));
    const { signal } = options;
    if (signal?.aborted) return Promise.reject(new Error("aborted"));
    const id = `${this.prefix}_${this.next++}`;
    return new Promise<R>((resolve, reject) => {
      const onAbort = () => {
        this.pending.delete(id);
        options.cancel?.(id);
        reject(new Error("aborted"));
      };
      const done = () => {
        this.pending.delete(id);
        signal?.removeEventListener("abort", onAbort);
      };
      this.pending.set(id, {
        resolve: (reply) => (done(), resolve(reply)),
        reject: (error) => (done(), reject(error)),
        onUpdate: options.onUpdate,
      });
      signal?.addEventListener("abort", onAbort, { once: true });
      send(id);
    });
  }

  /** Settles a request; false when no pending request has this id. */
  settle(id: string, reply: R): boolean {
    const entry = this.pending.get(id);
    if (!entry) return false;
    entry.resolve(reply);
    return true;
  }

  update(id: string, update: unknown): boolean {
    const entry = this.pending.get(id);
    if (!entry) return false;
    entry.onUpdate?.(update);
    return true;
  }

  /** The host can no longer answer: fail everything pending, and everything new. */
  close(reason: string): void {
    this.gone = reason;
    for (const entry of [...this.pending.values()]) entry.reject(new HostGone(reason));
  }

  get size(): number {
    return this.pending.size;
  }
}
