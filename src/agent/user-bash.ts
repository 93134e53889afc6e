/**
 * The user's own shell commands (rpc `bash`, not the model's tool): never
 * gated by permission rules, one at a time, stopped by abort_bash. The output
 * becomes a bashExecution message that the session places in the context.
 */
import type { BashExecutionMessage } from "../core/messages.ts";
import { runShell } from "../tools/bash.ts";
import { CommandError } from "./errors.ts";
import type { Emit } from "./events.ts";

export class UserBash {
  private running: AbortController | undefined;

  constructor(
    private readonly cwd: string,
    private readonly emit: Emit,
    private readonly deliver: (message: BashExecutionMessage) => void,
    private readonly redact: (text: string) => string,
  ) {}

  /** The output streams as bash_execution_update (tagged with the command's `id`); an excluded result is kept in the file (as Pi does) but never reaches the model. */
  async run(command: string, excludeFromContext = false, id?: string | number) {
    if (this.running) throw new CommandError("A bash command is already running; send abort_bash to stop it.");
    const controller = new AbortController();
    this.running = controller;
    const decoder = new TextDecoder();
    const onChunk = (chunk: Uint8Array) => {
      const delta = decoder.decode(chunk, { stream: true });
      if (delta) this.emit({ type: "bash_execution_update", ...(id === undefined ? {} : { id }), delta });
    };
    try {
      const result = await runShell(command, { cwd: this.cwd, signal: controller.signal, usePty: false, onChunk });
      const message: BashExecutionMessage = {
        role: "bashExecution",
        command,
        // the user's output joins the model's context like a tool result: the same secrets are removed
        output: this.redact(result.output),
        exitCode: result.exitCode ?? undefined,
        cancelled: result.cancelled,
        truncated: result.truncated,
        fullOutputPath: result.fullOutputPath,
        timestamp: Date.now(),
      };
      if (excludeFromContext) message.excludeFromContext = true;
      this.deliver(message);
      const { output, exitCode, cancelled, truncated, fullOutputPath } = message;
      return { output, exitCode, cancelled, truncated, fullOutputPath };
    } finally {
      this.running = undefined;
    }
  }

  abort(): void {
    this.running?.abort();
  }
}
