/**
 * The byte path: stdin chunks → LF scanner → UTF-8 → JSON.parse → zod →
 * handler → response. Every failure becomes one `success:false` response
 * (echoing the id when the record had a string one) and reading goes on.
 */
import { LfScanner, MAX_RECORD_BYTES, type ScanItem } from "../wire/lf-scanner.ts";
import { describeIssue } from "../core/describe-issue.ts";
import { commandSchema, concurrentCommands, isCommandType, isReplyType, replySchema, type CommandType, type ReplyType } from "./commands.ts";
import type { FrameWriter } from "../wire/writer.ts";
import { MAX_JSON_DEPTH, nestsDeeperThan, refusedReply, tooDeep } from "./json-bounds.ts";

export type Handler = (command: any) => unknown;
export type ReplyHandler = (reply: any) => void;

export interface Dispatch {
  commands: Partial<Record<CommandType, Handler>>;
  replies: Partial<Record<ReplyType, ReplyHandler>>;
}

const decoder = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false });

export class RpcServer {
  private readonly scanner = new LfScanner(MAX_RECORD_BYTES);
  private readonly records: ScanItem[] = [];
  private running = new Set<Promise<unknown>>();

  constructor(private readonly writer: FrameWriter, private readonly dispatch: Dispatch) {}

  /** Reads until stdin closes; resolves once every dispatched command has answered. */
  async serve(input: ReadableStream<Uint8Array>): Promise<void> {
    const collect = (item: ScanItem) => this.records.push(item);
    for await (const chunk of input) {
      this.scanner.push(chunk, collect);
      await this.drain();
    }
    this.scanner.end(collect);
    await this.drain();
    while (this.running.size > 0) await Promise.all(this.running);
  }

  private async drain(): Promise<void> {
    while (this.records.length > 0) {
      // stdout is blocked and enough is queued: stop taking commands (and so stop reading stdin) until it drains
      if (this.writer.backlogged()) await this.writer.drained();
      const item = this.records.shift()!;
      if (item.kind === "oversize") {
        this.fail(undefined, "parse", `record exceeds 8 MiB limit (${item.bytes} bytes)`);
        continue;
      }
      await this.handleRecord(item.bytes);
    }
  }

  private async handleRecord(bytes: Uint8Array): Promise<void> {
    if (isBlank(bytes)) return;
    let text: string;
    try {
      text = decoder.decode(bytes);
    } catch {
      return this.fail(undefined, "parse", "Failed to parse command: record is not valid UTF-8");
    }
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (error) {
      return this.fail(undefined, "parse", `Failed to parse command: ${(error as Error).message}`);
    }
    if (value === null || typeof value !== "object" || Array.isArray(value)) {
      const kind = value === null ? "null" : Array.isArray(value) ? "an array" : `a ${typeof value}`;
      return this.fail(undefined, "parse", `Failed to parse command: a command must be a JSON object, got ${kind}`);
    }
    const frame = value as Record<string, unknown>;
    const id = typeof frame.id === "string" ? frame.id : undefined;
    const type = frame.type;
    if (typeof type !== "string") {
      return this.fail(id, "unknown", type === undefined ? "type is required" : `type must be a string, got ${JSON.stringify(type)}`);
    }
    if (nestsDeeperThan(frame, MAX_JSON_DEPTH)) return this.refuseDeep(id, type);
    if (isReplyType(type)) return this.reply(type, frame);
    if (!isCommandType(type)) return this.fail(id, type, `Unknown command: ${type}`);
    const parsed = commandSchema(type).safeParse(frame, { reportInput: true });
    if (!parsed.success) return this.fail(id, type, describeIssue(parsed.error.issues[0]));
    const handler = this.dispatch.commands[type];
    if (!handler) return this.fail(id, type, `${type} is not supported by this nova build`);
    const run = this.run(id, type, handler, parsed.data);
    if (!concurrentCommands.has(type)) return run;
    this.running.add(run);
    run.finally(() => this.running.delete(run));
  }

  private async run(id: string | undefined, command: string, handler: Handler, data: unknown): Promise<void> {
    try {
      const result = await handler(data);
      this.writer.send(result === undefined ? { id, type: "response", command, success: true } : { id, type: "response", command, success: true, data: result });
    } catch (error) {
      this.fail(id, command, error instanceof Error ? error.message : String(error));
    }
  }

  /** A frame too deep to keep: a command fails; a reply settles its request as a failure. */
  private refuseDeep(id: string | undefined, type: string): void {
    if (!isReplyType(type)) return this.fail(id, isCommandType(type) ? type : "unknown", tooDeep(isCommandType(type) ? `the ${type} command` : "the frame"));
    const standIn = id === undefined ? undefined : refusedReply(type, id, tooDeep(type));
    if (standIn) this.reply(type, standIn);
    else process.stderr.write(`nova: ignored ${type}: ${tooDeep("it")}\n`);
  }

  /** Replies to nova's own requests: no response, and an unknown id is ignored by the handler. */
  private reply(type: ReplyType, frame: Record<string, unknown>): void {
    const parsed = replySchema(type).safeParse(frame);
    if (!parsed.success) {
      process.stderr.write(`nova: ignored ${type}: ${describeIssue(parsed.error.issues[0])}\n`);
      return;
    }
    try {
      this.dispatch.replies[type]?.(parsed.data);
    } catch (error) {
      process.stderr.write(`nova: ${type} failed: ${(error as Error).message}\n`);
    }
  }

  private fail(id: string | undefined, command: string, error: string): void {
    this.writer.send({ id, type: "response", command, success: false, error });
  }
}

function isBlank(bytes: Uint8Array): boolean {
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i];
    if (b !== 0x20 && b !== 0x09 && b !== 0x0d && b !== 0x0a) return false;
  }
  return true;
}
