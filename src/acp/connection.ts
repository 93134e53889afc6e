/**
 * JSON-RPC 2.0 in both directions over rpc mode's byte path: the same LF
 * scanner (8 MiB cap) in, the same frame writer out. The client's requests
 * run concurrently (a prompt answers only at turn end, and a cancel must get
 * through meanwhile); nova's own requests to the client (permission, fs,
 * terminal) wait for the matching response by id.
 */
import { LfScanner, MAX_RECORD_BYTES, type ScanItem } from "../wire/lf-scanner.ts";
import type { FrameWriter } from "../wire/writer.ts";
import { INTERNAL_ERROR, INVALID_REQUEST, METHOD_NOT_FOUND, PARSE_ERROR, RpcError } from "./errors.ts";

type Id = string | number;

export interface Handlers {
  /** the method's result; throws RpcError (or any Error → -32603) to fail it */
  requests: Record<string, (params: unknown) => Promise<unknown>>;
  notifications: Record<string, (params: unknown) => void>;
}

const decoder = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false });

export class Connection {
  private nextId = 0;
  private readonly waiting = new Map<Id, { resolve: (result: unknown) => void; reject: (error: RpcError) => void }>();
  private readonly running = new Set<Promise<void>>();
  private closed = false;

  constructor(private readonly writer: FrameWriter, private readonly handlers: Handlers) {}

  /** Reads until the input closes; then nova's open requests to the client fail. */
  async serve(input: ReadableStream<Uint8Array>): Promise<void> {
    const scanner = new LfScanner(MAX_RECORD_BYTES);
    const take = (item: ScanItem) => this.receive(item);
    for await (const chunk of input) {
      scanner.push(chunk, take);
      // the client stopped reading: stop reading its input too, so it blocks instead of growing nova
      if (this.writer.backlogged()) await this.writer.drained();
    }
    scanner.end(take);
    this.closed = true;
    for (const [id, waiter] of this.waiting) {
      this.waiting.delete(id);
      waiter.reject(new RpcError(INTERNAL_ERROR, "the client closed the connection"));
    }
  }

  /** Resolves once every client request has been answered. */
  async idle(): Promise<void> {
    while (this.running.size > 0) await Promise.all(this.running);
  }

  /** Calls a client method; rejects with the client's error, or when the connection closes. */
  request<T>(method: string, params: unknown): Promise<T> {
    if (this.closed) return Promise.reject(new RpcError(INTERNAL_ERROR, `cannot call ${method}: the client closed the connection`));
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      this.waiting.set(id, { resolve: resolve as (result: unknown) => void, reject });
      this.writer.send({ jsonrpc: "2.0", id, method, params });
    });
  }

  /** Resolves once the client has read what was written, so a slow editor holds the agent back. */
  drained(): Promise<void> | undefined {
    return this.writer.drained();
  }

  notify(method: string, params: unknown): void {
    this.writer.send({ jsonrpc: "2.0", method, params });
  }

  private receive(item: ScanItem): void {
    if (item.kind === "oversize") return this.fail(null, PARSE_ERROR, `Parse error: record exceeds 8 MiB limit (${item.bytes} bytes)`);
    let value: unknown;
    try {
      const text = decoder.decode(item.bytes);
      if (text.trim() === "") return;
      value = JSON.parse(text);
    } catch (error) {
      const why = error instanceof SyntaxError ? error.message : "record is not valid UTF-8";
      return this.fail(null, PARSE_ERROR, `Parse error: ${why}`);
    }
    if (Array.isArray(value)) return this.fail(null, INVALID_REQUEST, "Invalid request: batches are not supported; send one message per line");
    if (value === null || typeof value !== "object") {
      return this.fail(null, INVALID_REQUEST, `Invalid request: a message must be a JSON object, got ${value === null ? "null" : typeof value}`);
    }
    const message = value as Record<string, unknown>;
    const id = message.id;
    const validId = typeof id === "string" || (typeof id === "number" && Number.isFinite(id));
    if (message.jsonrpc !== "2.0") {
      return this.fail(validId ? id : null, INVALID_REQUEST, `Invalid request: jsonrpc must be "2.0", got ${JSON.stringify(message.jsonrpc) ?? "nothing"}`);
    }
    if (typeof message.method === "string") {
      if (id === undefined) return this.notification(message.method, message.params);
      if (!validId) return this.fail(null, INVALID_REQUEST, `Invalid request: id must be a string or a number, got ${JSON.stringify(id)}`);
      return this.track(this.call(id, message.method, message.params));
    }
    if (validId && ("result" in message || "error" in message)) return this.response(id, message);
    this.fail(validId ? id : null, INVALID_REQUEST, "Invalid request: a message needs a method (request or notification) or a result/error (response)");
  }

  private async call(id: Id, method: string, params: unknown): Promise<void> {
    const handler = Object.hasOwn(this.handlers.requests, method) ? this.handlers.requests[method] : undefined;
    if (!handler) return this.fail(id, METHOD_NOT_FOUND, `Method not found: ${method}`);
    try {
      const result = await handler(params);
      this.writer.send({ jsonrpc: "2.0", id, result: result ?? null });
    } catch (error) {
      if (error instanceof RpcError) return this.fail(id, error.code, error.message, error.data);
      this.fail(id, INTERNAL_ERROR, `Internal error: ${(error as Error)?.message ?? String(error)}`);
    }
  }

  /** Notifications get no answer, not even for an unknown method; a failure goes to stderr. */
  private notification(method: string, params: unknown): void {
    const handler = Object.hasOwn(this.handlers.notifications, method) ? this.handlers.notifications[method] : undefined;
    if (!handler) return;
    try {
      handler(params);
    } catch (error) {
      process.stderr.write(`nova: acp: ${method} ignored: ${(error as Error).message}\n`);
    }
  }

  private response(id: Id, message: Record<string, unknown>): void {
    const waiter = this.waiting.get(id);
    if (!waiter) return;
    this.waiting.delete(id);
    const error = message.error as { code?: unknown; message?: unknown; data?: unknown } | undefined;
    if (error && typeof error === "object") {
      const code = typeof error.code === "number" ? error.code : INTERNAL_ERROR;
      waiter.reject(new RpcError(code, typeof error.message === "string" ? error.message : "the client answered with an error", error.data));
    } else waiter.resolve(message.result);
  }

  private track(run: Promise<void>): void {
    this.running.add(run);
    run.finally(() => this.running.delete(run));
  }

  private fail(id: Id | null, code: number, message: string, data?: unknown): void {
    this.writer.send({ jsonrpc: "2.0", id, error: data === undefined ? { code, message } : { code, message, data } });
  }
}
