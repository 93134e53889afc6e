/**
 * `nova-agent/client`: a typed host for nova's RPC mode. It spawns nova (the
 * platform package's executable, or a path), matches responses to requests
 * by id, hands out the other frames as an async iterator, and answers nova's
 * own questions (host tools, host URIs, UI dialogs, permission requests)
 * through the handlers it was given. Runs under Node and Bun; imports only
 * node: modules, so it adds nothing to a host's dependencies.
 */
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { createRequire } from "node:module";
import type { CommandMap, Frame, FrameMap, ReplyMap, ResultMap } from "./protocol.ts";

export type { CommandMap, Frame, FrameMap, ReplyMap, ResultMap };
export type CommandType = keyof CommandMap;
/** A command as `request()` takes it: the client adds the id. */
export type Request<K extends CommandType> = Omit<CommandMap[K], "id">;
type Event = Exclude<Frame, FrameMap["response"]>;
type ToolResult = ReplyMap["host_tool_result"]["result"];
type UriResult = Omit<ReplyMap["host_uri_result"], "type" | "id">;
type UiAnswer = Omit<ReplyMap["extension_ui_response"], "type" | "id">;

export interface Handlers {
  /** a tool the host declared with `set_host_tools` was called; unhandled, the call fails */
  hostTool?: (call: FrameMap["host_tool_call"], update: (partial: ToolResult) => void) => ToolResult | Promise<ToolResult>;
  /** a read or write of a scheme declared with `set_host_uri_schemes`; unhandled, it fails */
  hostUri?: (request: FrameMap["host_uri_request"]) => UriResult | Promise<UriResult>;
  /** a dialog (select, confirm, input, editor); unhandled, it is cancelled. Notices (notify, setStatus, …) come as events only. */
  ui?: (request: FrameMap["extension_ui_request"]) => UiAnswer | Promise<UiAnswer>;
  /** a flagged tool call waits for the host: true runs it; unhandled, nova keeps waiting (the frame is an event too) */
  permission?: (request: FrameMap["permission_request"]) => boolean | Promise<boolean>;
}

export interface StartOptions extends Handlers {
  /** the nova executable, or a command line that runs nova (`["bun", "src/main.ts"]`); default: the installed `@nova-agent/<target>` package's */
  binary?: string | string[];
  /** arguments after `--mode rpc` (`--no-session`, `--model scripted/demo`, …) */
  args?: string[];
  cwd?: string;
  env?: Record<string, string | undefined>;
  /** where nova's stderr goes; default: this process's stderr */
  stderr?: (text: string) => void;
}

/** A command nova answered with `success:false`. */
export class NovaError extends Error {
  constructor(
    readonly command: string,
    message: string,
  ) {
    super(`${command}: ${message}`);
  }
}

const DIALOGS = new Set(["select", "confirm", "input", "editor"]);

export class NovaClient {
  private nextId = 1;
  private readonly pending = new Map<number, { resolve: (data: unknown) => void; reject: (error: Error) => void; command: string }>();
  private readonly listeners = new Set<(frame: Event | undefined) => void>();
  private buffer = "";
  private ended = false;
  private readonly exitCode: Promise<number>;

  private constructor(
    private readonly child: ChildProcessWithoutNullStreams,
    private readonly handlers: Handlers,
    readonly ready: FrameMap["ready"],
    rest: string,
  ) {
    this.exitCode = new Promise((resolve) => child.once("close", (code) => resolve(code ?? 1)));
    child.stdout.on("data", (chunk: Buffer) => this.read(chunk.toString("utf8")));
    child.once("close", () => this.closed());
    // nova gone: a write fails through the request that made it, not as an unhandled stream error
    child.stdin.on("error", () => {});
    if (rest) this.read(rest);
  }

  /** Spawns `nova --mode rpc …args` and resolves once its `ready` frame arrived. */
  static async start(options: StartOptions = {}): Promise<NovaClient> {
    const [binary, ...prefix] = typeof options.binary === "string" ? [options.binary] : (options.binary ?? [platformBinary()]);
    if (!binary) throw new Error("binary: an empty command line");
    const child = spawn(binary, [...prefix, "--mode", "rpc", ...(options.args ?? [])], { cwd: options.cwd, env: options.env ?? process.env, stdio: "pipe", windowsHide: true });
    child.stderr.on("data", (chunk: Buffer) => (options.stderr ? options.stderr(chunk.toString("utf8")) : process.stderr.write(chunk)));
    const { ready, rest } = await firstLine(child);
    return new NovaClient(child, options, ready, rest);
  }

  /** Sends a command and resolves with its typed `data`; a `success:false` answer rejects with a NovaError. */
  request<K extends CommandType>(command: Request<K> & { type: K }): Promise<ResultMap[K]> {
    const id = this.nextId++;
    if (this.ended) return Promise.reject(new NovaError(command.type, "nova's stdin is closed"));
    return new Promise<ResultMap[K]>((resolve, reject) => {
      this.pending.set(id, { resolve: (data) => resolve(data as ResultMap[K]), reject, command: command.type });
      this.write({ ...command, id });
    });
  }

  /** Every frame but responses, from now on, until nova exits. Each call is its own iterator. */
  events(): AsyncIterableIterator<Event> {
    const queue: (Event | undefined)[] = [];
    let wake: (() => void) | undefined;
    const listener = (frame: Event | undefined) => {
      queue.push(frame);
      wake?.();
    };
    this.listeners.add(listener);
    const stop = () => this.listeners.delete(listener);
    return {
      [Symbol.asyncIterator]() {
        return this;
      },
      async next(): Promise<IteratorResult<Event>> {
        while (queue.length === 0) await new Promise<void>((resolve) => (wake = resolve));
        const frame = queue.shift();
        if (frame === undefined) {
          stop();
          return { done: true, value: undefined };
        }
        return { done: false, value: frame };
      },
      async return(): Promise<IteratorResult<Event>> {
        stop();
        return { done: true, value: undefined };
      },
    };
  }

  /** Sends a prompt and collects every event up to the `agent_settled` that ends the work it started. */
  async promptAndWait(message: string, options: Omit<Request<"prompt">, "type" | "message"> = {}): Promise<Event[]> {
    const events = this.events();
    const collected: Event[] = [];
    await this.request({ type: "prompt", message, ...options });
    for await (const event of events) {
      collected.push(event);
      if (event.type === "agent_settled") break;
    }
    return collected;
  }

  /** Closes nova's stdin (the running turn finishes) and resolves with its exit code. */
  async close(): Promise<number> {
    this.ended = true;
    this.child.stdin.end();
    return this.exitCode;
  }

  /** SIGTERM: the running turn is aborted at once. */
  async kill(): Promise<number> {
    this.child.kill("SIGTERM");
    return this.exitCode;
  }

  private write(frame: object): void {
    this.child.stdin.write(`${JSON.stringify(frame)}\n`);
  }

  private read(text: string): void {
    this.buffer += text;
    let lf = this.buffer.indexOf("\n");
    while (lf >= 0) {
      const line = this.buffer.slice(0, lf);
      this.buffer = this.buffer.slice(lf + 1);
      if (line.trim()) this.dispatch(JSON.parse(line) as Frame);
      lf = this.buffer.indexOf("\n");
    }
  }

  private dispatch(frame: Frame): void {
    if (frame.type === "response") {
      const waiting = typeof frame.id === "number" ? this.pending.get(frame.id) : undefined;
      if (!waiting) return;
      this.pending.delete(frame.id as number);
      if (frame.success) waiting.resolve(frame.data);
      else waiting.reject(new NovaError(frame.command, frame.error));
      return;
    }
    for (const listener of this.listeners) listener(frame);
    void this.answer(frame);
  }

  /** nova's questions to the host, answered through the handlers. */
  private async answer(frame: Event): Promise<void> {
    const { handlers } = this;
    try {
      if (frame.type === "host_tool_call") {
        if (!handlers.hostTool)
          return this.write({ type: "host_tool_result", id: frame.id, isError: true, result: { content: [{ type: "text", text: "this host handles no tools" }] } });
        const result = await handlers.hostTool(frame, (partial) => this.write({ type: "host_tool_update", id: frame.id, partialResult: partial }));
        this.write({ type: "host_tool_result", id: frame.id, result });
      } else if (frame.type === "host_uri_request") {
        const result = handlers.hostUri ? await handlers.hostUri(frame) : { isError: true, error: "this host serves no URIs" };
        this.write({ type: "host_uri_result", id: frame.id, ...result });
      } else if (frame.type === "extension_ui_request" && DIALOGS.has(frame.method)) {
        const answer = handlers.ui ? await handlers.ui(frame) : { cancelled: true };
        this.write({ type: "extension_ui_response", id: frame.id, ...answer });
      } else if (frame.type === "permission_request" && handlers.permission) {
        const approved = await handlers.permission(frame);
        await this.request({ type: "permission_response", requestId: frame.requestId, approved });
      }
    } catch (error) {
      this.fail(frame, error instanceof Error ? error.message : String(error));
    }
  }

  /** A handler threw: the question is answered as failed, so nova does not wait for it. */
  private fail(frame: Event, message: string): void {
    if (frame.type === "host_tool_call") this.write({ type: "host_tool_result", id: frame.id, isError: true, result: { content: [{ type: "text", text: message }] } });
    else if (frame.type === "host_uri_request") this.write({ type: "host_uri_result", id: frame.id, isError: true, error: message });
    else if (frame.type === "extension_ui_request") this.write({ type: "extension_ui_response", id: frame.id, cancelled: true });
  }

  private closed(): void {
    this.ended = true;
    for (const [, waiting] of this.pending) waiting.reject(new NovaError(waiting.command, "nova exited before answering"));
    this.pending.clear();
    for (const listener of this.listeners) listener(undefined);
  }
}

/** The first line, which must be `ready`, and whatever came after it in the same chunks. */
function firstLine(child: ChildProcessWithoutNullStreams): Promise<{ ready: FrameMap["ready"]; rest: string }> {
  return new Promise((resolve, reject) => {
    let text = "";
    const onData = (chunk: Buffer) => {
      text += chunk.toString("utf8");
      const lf = text.indexOf("\n");
      if (lf < 0) return;
      child.stdout.off("data", onData);
      child.off("close", onClose);
      const frame = JSON.parse(text.slice(0, lf)) as Frame;
      if (frame.type !== "ready") return reject(new Error(`nova's first frame was not ready: ${text.slice(0, lf)}`));
      resolve({ ready: frame, rest: text.slice(lf + 1) });
    };
    const onClose = (code: number | null) => reject(new Error(`nova exited (code ${code}) before it was ready`));
    child.stdout.on("data", onData);
    child.once("close", onClose);
    child.once("error", reject);
  });
}

/** The executable of the `@nova-agent/<target>` package npm installed beside nova-agent. */
export function platformBinary(): string {
  const musl = process.platform === "linux" && !(process.report?.getReport() as { header?: { glibcVersionRuntime?: string } } | undefined)?.header?.glibcVersionRuntime;
  const os = process.platform === "win32" ? "windows" : process.platform;
  const target = `${os}-${process.arch}${musl ? "-musl" : ""}`;
  const exe = process.platform === "win32" ? "nova.exe" : "nova";
  try {
    return createRequire(import.meta.url).resolve(`@nova-agent/${target}/bin/${exe}`);
  } catch {
    throw new Error(`no nova executable for ${target}: @nova-agent/${target} is not installed (pass binary: to use another)`);
  }
}
