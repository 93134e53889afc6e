/**
 * The user's own shell commands (rpc `bash`, not the model's tool): never
 * gated by permission rules, one at a time, stopped by abort_bash. The output
 * becomes a bashExecution message that the session places in the context.
 */
import type { BashExecutionMessage } from "../core/messages.ts";
import { runShell } from "../tools/bash.ts";
import { CommandError } from "./errors.ts";

export class UserBash {
  private running: AbortController | undefined;

  constructor(private readonly cwd: string, private readonly deliver: (message: BashExecutionMessage) => void) {}

  async run(command: string, excludeFromContext = false) {
    if (this.running) throw new CommandError("A bash command is already running; send abort_bash to stop it.");
    const controller = new AbortController();
    this.running = controller;
    try {
      const result = await runShell(command, { cwd: this.cwd, signal: controller.signal, usePty: false });
      const message: BashExecutionMessage = {
        role: "bashExecution",
        command,
        output: result.output,
        exitCode: result.exitCode ?? undefined,
        cancelled: result.cancelled,
        truncated: result.truncated,
        fullOutputPath: result.fullOutputPath,
        timestamp: Date.now(),
      };
      if (!excludeFromContext) this.deliver(message);
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
