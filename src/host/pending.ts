/**
 * Requests nova makes of the other side and the replies that settle them,
 * matched by id: host tool calls, URI reads and dialogs (rpc), questions about
 * bash commands, and every JSON-RPC request acp sends its client. A reply for
 * an unknown id settles nothing (the caller is told, and decides); once the
 * other side can no longer answer, every pending request fails at once, and so
 * does every new one.
 */

/** Why a request to the host failed once stdin closed; the words a tool result shows. */
export const HOST_GONE = "the host is gone (it closed stdin), so it can no longer answer";

export class HostGone extends Error {
  constructor(reason: string) {
    super(reason);
    this.name = "HostGone";
  }
}

/**
 * A request by name, with the check of its reply: the caller gets an `R`
 * or an error saying what the reply lacked (the ACP SDK's request table idea).
 */
export interface RequestSpec<P, R> {
  readonly method: string;
  /** compile-time only: what the request carries */
  readonly params?: P;
  readonly reply: (value: unknown) => R;
}

export function requestSpec<P, R>(method: string, reply: (value: unknown) => R): RequestSpec<P, R> {
  return { method, reply };
}

export interface OpenOptions<Id> {
  signal?: AbortSignal;
  /** called when the signal aborts the request, so the other side can stop working on it */
  cancel?: (id: Id) => void;
  onUpdate?: (update: unknown) => void;
}

interface Pending<R> {
  resolve(reply: R): void;
  reject(error: Error): void;
  onUpdate?(update: unknown): void;
}

/** "host_1", "host_2", …: ids that say which sub-protocol they belong to. */
export function prefixedIds(prefix: string): () => string {
  let next = 1;
  return () => `${prefix}_${next++}`;
}

export class PendingTable<Id extends string | number, R> {
  private readonly pending = new Map<Id, Pending<R>>();
  private gone: (() => Error) | undefined;

  constructor(private readonly newId: () => Id) {}

  /** Opens a request: `send(id)` writes it. An abort rejects it and calls `cancel(id)`. */
  open(send: (id: Id) => void, options: OpenOptions<Id> = {}): Promise<R> {
    if (this.gone) return Promise.reject(this.gone());
    const { signal } = options;
    if (signal?.aborted) return Promise.reject(new Error("aborted"));
    const id = this.newId();
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
  settle(id: Id, reply: R): boolean {
    const entry = this.pending.get(id);
    if (!entry) return false;
    entry.resolve(reply);
    return true;
  }

  /** Fails a request with the other side's error; false when no pending request has this id. */
  fail(id: Id, error: Error): boolean {
    const entry = this.pending.get(id);
    if (!entry) return false;
    entry.reject(error);
    return true;
  }

  update(id: Id, update: unknown): boolean {
    const entry = this.pending.get(id);
    if (!entry) return false;
    entry.onUpdate?.(update);
    return true;
  }

  /** Settles everything pending with the same reply; new requests still open. */
  settleAll(reply: R): void {
    for (const entry of [...this.pending.values()]) entry.resolve(reply);
  }

  /** The other side can no longer answer: fail everything pending, and everything new. */
  close(error: () => Error): void {
    this.gone = error;
    for (const entry of [...this.pending.values()]) entry.reject(error());
  }

  get size(): number {
    return this.pending.size;
  }
}
