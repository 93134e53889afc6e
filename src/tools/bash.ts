/**
 * `bash`: runs a command line in the session cwd after the permission check.
 * A flagged command waits for the host's answer; a denied one never runs.
 */
import { z } from "zod";
import { defineTool } from "./define.ts";
import { MAX_BYTES, MAX_LINES } from "./limits.ts";
import { type PermissionRules, checkCommand } from "./permissions.ts";
import { type ShellResult, type ShellSandbox, runShell } from "./run-shell.ts";
import type { Tool, ToolContext } from "./types.ts";
import { ToolError } from "./types.ts";
import { HostGone } from "../host/pending.ts";

export { type ShellOptions, type ShellResult, runShell } from "./run-shell.ts";

const schema = () =>
  z.object({
    command: z.string().min(1).describe("Bash command line to run in the cwd"),
    timeout: z.number().positive().optional().describe("Timeout in seconds; the command and its children are killed when it passes"),
  });

/** The OS sandbox as the bash tool sees it (src/sandbox/ implements it); given only while it is active. */
export interface BashSandbox extends ShellSandbox {
  /** commands flagged only for changing files in the workspace run unasked */
  readonly autoAllow: boolean;
  /** a sentence for the model when a failed command's output reads like the sandbox stopped it */
  explain(output: string): string | undefined;
}

export function createBashTool(rules: PermissionRules, sandbox?: BashSandbox): Tool {
  return defineTool({
    name: "bash",
    mutating: true,
    description:
      `Run a bash command in the cwd. Output (stdout and stderr together) is cut to the last ${MAX_LINES} lines or ` +
      `${MAX_BYTES / 1024} KB; the full output is then saved to a file whose path is given. ` +
      "Dangerous commands (recursive rm, sudo, force push, writes outside the cwd, …) need the user's approval.",
    schema,
    async run(args, ctx) {
      await gate(args.command, rules, ctx, sandbox);
      // An editor's own terminal runs outside nova's reach: while the sandbox is on, commands run here, confined.
      const runner = sandbox ? { run: runShell } : (ctx.terminal ?? { run: runShell });
      const result = await runner.run(args.command, {
        cwd: ctx.cwd,
        signal: ctx.signal,
        timeoutMs: args.timeout !== undefined ? args.timeout * 1000 : undefined,
        onOutput: (tail) => ctx.onUpdate({ content: [{ type: "text", text: tail }] }),
        // Without a UI the host cannot answer prompts anyway; a PTY makes tools print as they would for a person.
        usePty: !ctx.hasUI,
        env: ctx.env,
        sandbox,
      });
      const blocked = result.exitCode !== 0 && !result.cancelled && !result.timedOut ? sandbox?.explain(result.output) : undefined;
      return {
        content: [{ type: "text", text: describe(result, args.timeout, blocked) }],
        details: {
          exitCode: result.exitCode,
          cancelled: result.cancelled,
          timedOut: result.timedOut,
          truncated: result.truncated,
          fullOutputPath: result.fullOutputPath,
        },
        isError: result.exitCode !== 0,
      };
    },
  });
}

async function gate(command: string, rules: PermissionRules, ctx: ToolContext, sandbox: BashSandbox | undefined): Promise<void> {
  const check = checkCommand(command, rules, ctx.cwd);
  if (check.verdict === "deny") throw new ToolError(`bash: command blocked by the deny rule "${check.rule}" in the permissions config`);
  if (check.verdict === "allow") return;
  if (sandbox?.autoAllow && check.confinable) return;
  if (!ctx.askPermission) {
    throw new ToolError(`bash: this command needs the user's approval (${check.reason}), but there is no one to ask here; it was not run`);
  }
  const approved = await ctx.askPermission({ toolName: "bash", kind: "bash", command, reason: check.reason, confinable: check.confinable }, ctx.signal).catch((error: unknown) => {
    if (error instanceof HostGone) throw new ToolError(`bash: this command needs the user's approval (${check.reason}), but ${error.message}; it was not run`);
    throw error;
  });
  if (!approved) throw new ToolError(`bash: permission denied by the user (the command was flagged because ${check.reason})`);
}

function describe(result: ShellResult, timeoutSeconds: number | undefined, blocked: string | undefined): string {
  const parts = [result.output.length > 0 ? result.output.replace(/\n$/, "") : "(no output)"];
  if (result.truncated) {
    const full = result.fullOutputPath ? `; full output: ${result.fullOutputPath}` : "";
    parts.push(`[Output cut to its last ${MAX_LINES} lines / ${MAX_BYTES / 1024} KB${full}]`);
  }
  if (result.timedOut) parts.push(`[Timed out after ${timeoutSeconds} s; the command and its children were killed]`);
  if (result.cancelled) parts.push("[Cancelled; the command and its children were killed]");
  if (blocked) parts.push(`[${blocked}]`);
  parts.push(result.exitCode === null ? "[exit code: none, killed by a signal]" : `[exit code: ${result.exitCode}]`);
  return parts.join("\n\n");
}
