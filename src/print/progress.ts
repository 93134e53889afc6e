/**
 * What `-p` tells stderr while it works. On a terminal: one live line (model,
 * turn, the tool running, elapsed time) redrawn in place. Otherwise (a log, a
 * pipe): one plain line per tool call when it ends, plus retries. Either way
 * a denied command gets a line of its own that says how to allow it.
 */
import type { AgentEvent } from "../agent/events.ts";

const SPINNER = "⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏";

export class Progress {
  private turn = 0;
  private tool: string | undefined;
  /** what the model is streaming: thinking, writing, calling a tool */
  private doing = "waiting for the model";
  private readonly args = new Map<string, string>();
  private readonly started = performance.now();
  private timer: ReturnType<typeof setInterval> | undefined;
  private frame = 0;
  private drawn = false;

  constructor(
    private readonly err: NodeJS.WriteStream,
    private readonly live: boolean,
    private readonly model: string,
  ) {
    if (live) {
      this.timer = setInterval(() => this.draw(), 120);
      this.timer.unref();
    }
  }

  onEvent(event: AgentEvent): void {
    switch (event.type) {
      case "turn_start":
        this.turn++;
        this.doing = "waiting for the model";
        break;
      case "message_update": {
        const kind = event.assistantMessageEvent.type;
        const doing = kind.startsWith("thinking") ? "thinking" : kind.startsWith("text") ? "writing" : kind.startsWith("toolcall") ? "calling a tool" : this.doing;
        if (doing === this.doing) return;
        this.doing = doing;
        break;
      }
      case "tool_execution_start":
        this.tool = `${event.toolName} ${shortArgs(event.args, 60)}`;
        this.args.set(event.toolCallId, shortArgs(event.args, 200));
        break;
      case "tool_execution_end": {
        this.tool = undefined;
        const args = this.args.get(event.toolCallId) ?? "";
        this.args.delete(event.toolCallId);
        const text = event.result.content.flatMap((c) => (c.type === "text" ? [c.text] : [])).join("\n");
        const denied = (event.result.details as { permissionDenied?: boolean } | undefined)?.permissionDenied === true;
        if (denied) this.line(`nova: denied: ${firstLine(text)}`);
        else if (!this.live) this.line(`tool ${event.toolName} ${args} → ${event.isError ? `error: ${firstLine(text)}` : "ok"}`);
        break;
      }
      case "auto_retry_start":
        if (!this.live) this.line(`nova: retrying in ${Math.round(event.delayMs / 100) / 10}s (attempt ${event.attempt} of ${event.maxAttempts}): ${event.errorMessage}`);
        break;
      default:
        return;
    }
    this.draw();
  }

  /** A line that stays, printed above the live status. */
  line(text: string): void {
    this.clear();
    this.err.write(`${text}\n`);
    this.draw();
  }

  /** Removes the live line for good (before the answer is printed). */
  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    this.clear();
  }

  private draw(): void {
    if (!this.timer) return;
    const seconds = ((performance.now() - this.started) / 1000).toFixed(1);
    const doing = this.tool ? `running ${this.tool}` : this.doing;
    const text = `${SPINNER[this.frame++ % SPINNER.length]} ${this.model} · turn ${Math.max(this.turn, 1)} · ${doing} · ${seconds}s`;
    const width = this.err.columns || 80;
    this.err.write(`\r\x1b[K${text.length >= width ? `${text.slice(0, width - 2)}…` : text}`);
    this.drawn = true;
  }

  private clear(): void {
    if (!this.drawn) return;
    this.err.write("\r\x1b[K");
    this.drawn = false;
  }
}

function shortArgs(args: Record<string, unknown> | string, max: number): string {
  const text = typeof args === "string" ? args : JSON.stringify(args);
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

function firstLine(text: string): string {
  const line = text.split("\n").find((l) => l.trim() !== "") ?? "";
  return line.length > 400 ? `${line.slice(0, 399)}…` : line;
}
