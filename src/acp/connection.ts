/**
 * JSON-RPC 2.0 in both directions over rpc mode's byte path: the same LF
 * scanner (8 MiB cap) in, the same frame writer out. The client's requests
 * run concurrently (a prompt answers only at turn end, and a cancel must get
 * through meanwhile); nova's own requests to the client (permission, fs,
 * terminal) wait for the matching response by id in one pending table.
 */
import { PendingTable, type RequestSpec } from "../host/pending.ts";
import { readRecords, type DecodedRecord } from "../wire/records.ts";
import type { FrameWriter } from "../wire/writer.ts";
import { INTERNAL_ERROR, INVALID_REQUEST, METHOD_NOT_FOUND, PARSE_ERROR, RpcError } from "./errors.ts";

type Id = string | number;

export interface Handlers {
  /** the method's result; throws RpcError (or any Error → -32603) to fail it */
  requests: Record<string, (params: unknown) => Promise<unknown>>;
  notifications: Record<string, (params: unknown) => void>;
}

export class Connection {
  private readonly waiting = new PendingTable<number, unknown>(idsFromZero());
  private readonly running = new Set<Promise<void>>();
  private closed = false;

  constructor(
    private readonly writer: FrameWriter,
    private readonly handlers: Handlers,
  ) {}

  /** Reads until the input closes; then nova's open requests to the client fail. */
  async serve(input: ReadableStream<Uint8Array>): Promise<void> {
    // the client stopped reading: stop reading its input too, so it blocks instead of growing nova
    const drained = () => (this.writer.backlogged() ? this.writer.drained() : undefined);
    for await (const record of readRecords(input, drained)) this.receive(record);
    this.closed = true;
    this.waiting.close(() => new RpcError(INTERNAL_ERROR, "the client closed the connection"));
  }

  /** Resolves once every client request has been answered. */
  async idle(): Promise<void> {
    while (this.running.size > 0) await Promise.all(this.running);
  }

  /** The input has closed: nothing nova asks can be answered any more. */
  get isClosed(): boolean {
    return this.closed;
  }

  /** Calls a client method; rejects with the client's error, a result that fails the spec's check, or when the connection closes. */
  async request<P, R>(spec: RequestSpec<P, R>, params: P): Promise<R> {
    if (this.closed) throw new RpcError(INTERNAL_ERROR, `cannot call ${spec.method}: the client closed the connection`);
    const result = await this.waiting.open((id) => this.writer.send({ jsonrpc: "2.0", id, method: spec.method, params }));
    return spec.reply(result);
  }

  /** Resolves once the client has read what was written, so a slow editor holds the agent back. */
  drained(): Promise<void> | undefined {
    return this.writer.drained();
  }

  notify(method: string, params: unknown): void {
    this.writer.send({ jsonrpc: "2.0", method, params });
  }

  private receive(record: DecodedRecord): void {
    if (record.kind === "blank") return;
    if (record.kind === "parse_error") return this.fail(null, PARSE_ERROR, `Parse error: ${record.message}`);
    if (record.kind === "not_object") {
      const { value } = record;
      if (Array.isArray(value)) return this.fail(null, INVALID_REQUEST, "Invalid request: batches are not supported; send one message per line");
      return this.fail(null, INVALID_REQUEST, `Invalid request: a message must be a JSON object, got ${value === null ? "null" : typeof value}`);
    }
    const message = record.value;
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

  /** A response to an id nova never sent (or a string id: nova's are numbers) settles nothing. */
  private response(id: Id, message: Record<string, unknown>): void {
    if (typeof id !== "number") return;
    const error = message.error as { code?: unknown; message?: unknown; data?: unknown } | undefined;
    if (error && typeof error === "object") {
      const code = typeof error.code === "number" ? error.code : INTERNAL_ERROR;
      this.waiting.fail(id, new RpcError(code, typeof error.message === "string" ? error.message : "the client answered with an error", error.data));
    } else this.waiting.settle(id, message.result);
  }

  private track(run: Promise<void>): void {
    this.running.add(run);
    run.finally(() => this.running.delete(run));
  }

  private fail(id: Id | null, code: number, message: string, data?: unknown): void {
    this.writer.send({ jsonrpc: "2.0", id, error: data === undefined ? { code, message } : { code, message, data } });
  }
}

function idsFromZero(): () => number {
  let next = 0;
  return () => next++;
}
