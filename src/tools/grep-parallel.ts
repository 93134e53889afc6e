/**
 * The files of a grep, searched in walk order: on the calling thread for a
 * small tree, and once the walk has passed a few thousand files, in batches
 * read by worker threads while the calling thread walks; when the walk is
 * done it searches the batches no worker has taken yet. Results are handed on
 * in walk order, so the output and where a limit stops are the same either way.
 */
import { type FileFound, type PatternSpec, filePrefilter, searchBatch } from "./grep-file.ts";
import type { BatchDone, WorkerRequest } from "./grep-worker.ts";

/** Below this many files, starting a worker costs more than it saves. */
export const PARALLEL_AFTER = 2000;
const BATCH = 256;
/** batches a worker holds at once: enough to stay busy between the walk's turns of the event loop */
const IN_FLIGHT = 8;

/** Called in walk order for each file with a match or too big to search; returns true once the search is full. */
export type OnFound = (rel: string, found: { text?: string; tooBig?: number }) => boolean;

interface Helper {
  worker: Worker;
  busy: Set<number>;
}

export class OrderedFileSearch {
  private readonly test: (bytes: Buffer) => string | undefined;
  private seen = 0;
  private full = false;
  private helpers: Helper[] | undefined;
  private abs: string[] = [];
  private rel: string[] = [];
  private readonly batches = new Map<number, { abs: string[]; rel: string[] }>();
  private readonly done = new Map<number, FileFound[]>();
  /** batches no worker has taken yet */
  private readonly pending: number[] = [];
  private sent = 0;
  private next = 0;
  private idle: (() => void) | undefined;

  constructor(
    private readonly spec: PatternSpec,
    private readonly onFound: OnFound,
    /** one core is the walk's; with a single core there are no workers and this thread does it all */
    private readonly workers = Math.max(0, Math.min(3, navigator.hardwareConcurrency - 1)),
  ) {
    this.test = filePrefilter(spec);
  }

  /** Searches (or queues) one file; true once the search is full, so the walk can stop. */
  add(abs: string, rel: string): boolean {
    if (this.full) return true;
    if (++this.seen <= PARALLEL_AFTER) {
      const [found] = searchBatch(this.test, [abs]);
      if (found) this.full = this.onFound(rel, found);
      return this.full;
    }
    this.abs.push(abs);
    this.rel.push(rel);
    if (this.abs.length >= BATCH) this.dispatch();
    return this.full;
  }

  /** Everything queued searched and handed on: this thread takes the batches from the back of the queue while the workers take the front. */
  async finish(): Promise<void> {
    if (this.abs.length > 0 && !this.full) this.dispatch();
    while (!this.full && this.pending.length > 0) {
      const batch = this.pending.pop()!;
      this.settle(batch, searchBatch(this.test, this.batches.get(batch)!.abs));
      // the workers' answers come in between batches
      await new Promise((resolve) => setImmediate(resolve));
    }
    while (!this.full && this.next < this.sent) await new Promise<void>((resolve) => (this.idle = resolve));
    this.close();
  }

  close(): void {
    for (const helper of this.helpers ?? []) helper.worker.terminate();
    this.helpers = [];
  }

  private dispatch(): void {
    const batch = this.sent++;
    const files = { abs: this.abs, rel: this.rel };
    this.abs = [];
    this.rel = [];
    this.batches.set(batch, files);
    if (this.pool().length === 0) return this.settle(batch, searchBatch(this.test, files.abs));
    this.pending.push(batch);
    this.pump();
  }

  /** Hands queued batches to the workers that have room. */
  private pump(): void {
    for (const helper of this.helpers ?? []) {
      while (helper.busy.size < IN_FLIGHT && this.pending.length > 0) {
        const batch = this.pending.shift()!;
        helper.busy.add(batch);
        helper.worker.postMessage({ batch, files: this.batches.get(batch)!.abs } satisfies WorkerRequest);
      }
    }
  }

  private pool(): Helper[] {
    if (this.helpers) return this.helpers;
    this.helpers = [];
    for (let i = 0; i < this.workers; i++) {
      let worker: Worker;
      try {
        worker = new Worker(workerUrl());
      } catch {
        break; // no threads here: the calling thread does it all
      }
      const helper: Helper = { worker, busy: new Set() };
      worker.onmessage = (event: MessageEvent<BatchDone>) => {
        helper.busy.delete(event.data.batch);
        this.settle(event.data.batch, event.data.found);
        if (!this.full) this.pump();
      };
      // a worker that fails hands its batches back: they are searched here
      worker.onerror = (event) => {
        process.stderr.write(`nova: grep: a worker thread failed (${event.message}); its files are searched without it\n`);
        this.helpers = this.helpers?.filter((h) => h !== helper);
        worker.terminate();
        for (const batch of helper.busy) this.settle(batch, searchBatch(this.test, this.batches.get(batch)?.abs ?? []));
        helper.busy.clear();
      };
      worker.postMessage({ spec: this.spec } satisfies WorkerRequest);
      this.helpers.push(helper);
    }
    return this.helpers;
  }

  /** Stores a batch's result and hands on every result that is next in walk order. */
  private settle(batch: number, found: FileFound[]): void {
    this.done.set(batch, found);
    while (!this.full && this.done.has(this.next)) {
      const results = this.done.get(this.next)!;
      const { rel } = this.batches.get(this.next)!;
      this.done.delete(this.next);
      this.batches.delete(this.next);
      this.next++;
      for (const one of results) if ((this.full = this.onFound(rel[one.index]!, one))) break;
    }
    if (this.full) this.close();
    if (this.full || this.next === this.sent) this.idle?.();
  }
}

/**
 * The compiled executable holds the worker as an entry point of its own
 * (build.ts), named by its path from the folder of both entry points (src/).
 */
function workerUrl(): string {
  return import.meta.url.includes("$bunfs") || import.meta.url.includes("~BUN") ? "./tools/grep-worker.ts" : new URL("./grep-worker.ts", import.meta.url).href;
}
