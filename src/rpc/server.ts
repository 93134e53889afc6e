/**
 * The byte path: stdin chunks → LF scanner → UTF-8 → JSON.parse → zod →
 * handler → response. Every failure becomes one `success:false` response
 * (echoing the id exactly as the record carried it) and reading goes on.
 */
import { readRecords, type DecodedRecord } from "../wire/records.ts";
import { describeIssue } from "../core/describe-issue.ts";
import { parseCommand, concurrentCommands, isCommandType, isReplyType, replySchema, type CommandOf, type CommandType, type ReplyOf, type ReplyType } from "./commands.ts";
import type { FrameWriter } from "../wire/writer.ts";
import type { ResponseData } from "./responses.ts";
import { MAX_JSON_DEPTH, nestsDeeperThan, refusedReply, tooDeep } from "./json-bounds.ts";

/**
 * One handler per command, taking that command's parsed frame and returning
 * its response data (responses.ts), or nothing when the response has none:
 * the compiler connects each handler to both schemas.
 */
export type CommandHandlers = {
  [K in CommandType]: ResponseData<K> extends undefined ? (command: CommandOf<K>) => void | Promise<void> : (command: CommandOf<K>) => ResponseData<K> | Promise<ResponseData<K>>;
};
export type ReplyHandlers = { [K in ReplyType]: (reply: ReplyOf<K>) => void };

export interface Dispatch {
  commands: CommandHandlers;
  replies: ReplyHandlers;
}

export class RpcServer {
  private running = new Set<Promise<unknown>>();

  constructor(
    private readonly writer: FrameWriter,
    private readonly dispatch: Dispatch,
  ) {}

  /** Reads until stdin closes; resolves once every dispatched command has answered. */
  async serve(input: ReadableStream<Uint8Array>): Promise<void> {
    for await (const record of readRecords(input)) {
      // stdout is blocked and enough is queued: stop taking commands (and so stop reading stdin) until it drains
      if (this.writer.backlogged()) await this.writer.drained();
      await this.handleRecord(record);
    }
    while (this.running.size > 0) await Promise.all(this.running);
  }

  private async handleRecord(record: DecodedRecord): Promise<void> {
    if (record.kind === "blank") return;
    if (record.kind === "parse_error") {
      return this.fail(undefined, "parse", record.reason === "oversize" ? record.message : `Failed to parse command: ${record.message}`);
    }
    if (record.kind === "not_object") {
      const { value } = record;
      const kind = value === null ? "null" : Array.isArray(value) ? "an array" : `a ${typeof value}`;
      return this.fail(undefined, "parse", `Failed to parse command: a command must be a JSON object, got ${kind}`);
    }
    const frame = record.value;
    const id = frame.id;
    const type = frame.type;
    if (typeof type !== "string") {
      return this.fail(id, "unknown", type === undefined ? "type is required" : `type must be a string, got ${JSON.stringify(type)}`);
    }
    if (nestsDeeperThan(frame, MAX_JSON_DEPTH)) return this.refuseDeep(id, type);
    if (isReplyType(type)) return this.reply(type, frame);
    if (!isCommandType(type)) return this.fail(id, type, `Unknown command: ${type}`);
    return this.command(id, type, frame);
  }

  private command<K extends CommandType>(id: unknown, type: K, frame: Record<string, unknown>): Promise<void> | void {
    const parsed = parseCommand(type, frame);
    if (!parsed.success) return this.fail(id, type, describeIssue(parsed.error.issues[0]!));
    const run = this.run(id, type, parsed.data);
    if (!concurrentCommands.has(type)) return run;
    this.running.add(run);
    run.finally(() => this.running.delete(run));
  }

  private async run<K extends CommandType>(id: unknown, command: K, data: CommandOf<K>): Promise<void> {
    try {
      const handler: CommandHandlers[K] = this.dispatch.commands[command];
      const result = await handler(data);
      this.writer.send(result === undefined ? { id, type: "response", command, success: true } : { id, type: "response", command, success: true, data: result });
    } catch (error) {
      this.fail(id, command, error instanceof Error ? error.message : String(error));
    }
  }

  /** A frame too deep to keep: a command fails; a reply settles its request as a failure. */
  private refuseDeep(id: unknown, type: string): void {
    if (!isReplyType(type)) return this.fail(id, isCommandType(type) ? type : "unknown", tooDeep(isCommandType(type) ? `the ${type} command` : "the frame"));
    const standIn = typeof id === "string" ? refusedReply(type, id, tooDeep(type)) : undefined;
    if (standIn) this.reply(type, standIn);
    else process.stderr.write(`nova: ignored ${type}: ${tooDeep("it")}\n`);
  }

  /** Replies to nova's own requests: no response, and an unknown id is ignored by the handler. */
  private reply<K extends ReplyType>(type: K, frame: Record<string, unknown>): void {
    const parsed = replySchema(type).safeParse(frame);
    if (!parsed.success) {
      process.stderr.write(`nova: ignored ${type}: ${describeIssue(parsed.error.issues[0]!)}\n`);
      return;
    }
    try {
      const handler: ReplyHandlers[K] = this.dispatch.replies[type];
      handler(parsed.data);
    } catch (error) {
      process.stderr.write(`nova: ${type} failed: ${(error as Error).message}\n`);
    }
  }

  private fail(id: unknown, command: string, error: string): void {
    this.writer.send({ id, type: "response", command, success: false, error });
  }
}
