/**
 * Claude-Code-compatible command hooks (docs/permissions.md#hooks), loaded
 * only when the config has `hooks`. Each matching command gets the event as
 * JSON on stdin; exit 0 goes on (its stdout may be JSON with a decision, or
 * context), exit 2 blocks with its stderr, any other exit or a timeout is a
 * failure reported as `hook_failed` and otherwise ignored. Built-in tools are
 * shown to hooks under Claude Code's names and argument names, so existing
 * scripts and matchers (`Bash`, `Write|Edit`) work unchanged.
 */
import type { HookSettings } from "../config/schema.ts";
import type { PermissionMode } from "../core/enums.ts";
import { runHookCommand } from "../tools/hook-command.ts";
import type { ShellSandbox } from "../tools/run-shell.ts";
import type { Emit } from "./events.ts";

export type HookEvent = keyof HookSettings;

export interface HookFacts {
  cwd: string;
  sessionId(): string;
  transcriptPath(): string | undefined;
  mode(): PermissionMode;
  sandbox?: ShellSandbox;
  emit: Emit;
}

/** What the hooks of one event decided together. */
export interface HookOutcome {
  /** exit 2 or `decision: "block"`: the reason (stderr, or the JSON's reason) */
  block?: string;
  /** PreToolUse's permissionDecision (deny wins over ask, ask over allow) */
  decision?: "allow" | "deny" | "ask";
  reason?: string;
  /** PreToolUse: the arguments to run the tool with (nova's names) */
  updatedInput?: Record<string, unknown>;
  /** text for the model (additionalContext, or plain stdout of UserPromptSubmit / SessionStart) */
  context: string[];
  /** `continue: false`: stop the run, with this reason */
  stop?: string;
}

const DEFAULT_TIMEOUT_S = 60;

/** nova's built-in tools as Claude Code names them. */
const CLAUDE_NAMES: Record<string, string> = {
  bash: "Bash",
  read: "Read",
  write: "Write",
  edit: "Edit",
  grep: "Grep",
  find: "Glob",
  ls: "LS",
  todo: "TodoWrite",
  task: "Task",
};
/** nova's argument names → Claude Code's (the tool input a hook sees has both) */
const CLAUDE_ARGS: Record<string, string> = { path: "file_path", oldText: "old_string", newText: "new_string" };

export class HookRunner {
  constructor(
    private readonly settings: HookSettings,
    private readonly facts: HookFacts,
  ) {}

  has(event: HookEvent): boolean {
    return (this.settings[event]?.length ?? 0) > 0;
  }

  async preToolUse(tool: string, args: Record<string, unknown>, toolUseId: string): Promise<HookOutcome> {
    const outcome = await this.run("PreToolUse", tool, { tool_name: claudeName(tool), tool_input: claudeInput(args), tool_use_id: toolUseId });
    if (outcome.updatedInput) outcome.updatedInput = novaInput(outcome.updatedInput);
    return outcome;
  }

  postToolUse(tool: string, args: Record<string, unknown>, response: unknown, toolUseId: string): Promise<HookOutcome> {
    return this.run("PostToolUse", tool, { tool_name: claudeName(tool), tool_input: claudeInput(args), tool_response: response, tool_use_id: toolUseId });
  }

  userPromptSubmit(prompt: string): Promise<HookOutcome> {
    return this.run("UserPromptSubmit", undefined, { prompt });
  }

  stop(active: boolean): Promise<HookOutcome> {
    return this.run("Stop", undefined, { stop_hook_active: active });
  }

  sessionStart(source: "startup" | "resume" | "clear" | "compact"): Promise<HookOutcome> {
    return this.run("SessionStart", source, { source });
  }

  /** Every matching command runs at once; their answers are combined. */
  private async run(event: HookEvent, matchOn: string | undefined, fields: Record<string, unknown>): Promise<HookOutcome> {
    const commands = (this.settings[event] ?? []).filter((m) => matches(m.matcher, matchOn)).flatMap((m) => m.hooks);
    const outcome: HookOutcome = { context: [] };
    if (commands.length === 0) return outcome;
    const input = JSON.stringify({
      session_id: this.facts.sessionId(),
      transcript_path: this.facts.transcriptPath() ?? null,
      cwd: this.facts.cwd,
      permission_mode: this.facts.mode(),
      hook_event_name: event,
      ...fields,
    });
    const env = { NOVA_PROJECT_DIR: this.facts.cwd, CLAUDE_PROJECT_DIR: this.facts.cwd };
    const results = await Promise.all(
      commands.map(async (hook) => {
        const timeout = hook.timeout ?? DEFAULT_TIMEOUT_S;
        try {
          return { hook, timeout, result: await runHookCommand(hook.command, { cwd: this.facts.cwd, input, timeoutMs: timeout * 1000, env, sandbox: this.facts.sandbox }) };
        } catch (error) {
          return { hook, timeout, error: (error as Error).message };
        }
      }),
    );
    for (const { hook, timeout, result, error } of results) {
      const fail = (text: string, exitCode?: number | null) =>
        this.facts.emit({
          type: "hook_failed",
          hookEvent: event,
          command: hook.command,
          error: text,
          ...(exitCode === undefined ? {} : { exitCode }),
          timedOut: result?.timedOut ?? false,
        });
      if (!result) {
        fail(`it could not be started: ${error}`);
        continue;
      }
      if (result.timedOut) {
        fail(`it timed out after ${timeout} s and was killed`);
        continue;
      }
      if (result.exitCode === 2) {
        outcome.block ??= result.stderr.trim() || `blocked by the ${event} hook ${hook.command}`;
        continue;
      }
      if (result.exitCode !== 0) {
        fail(`it exited with ${result.exitCode ?? "a signal"}${result.stderr.trim() ? `: ${result.stderr.trim().slice(0, 500)}` : ""}`, result.exitCode);
        continue;
      }
      const text = result.stdout.trim();
      const json = text.startsWith("{") ? parseJson(text) : undefined;
      if (text.startsWith("{") && !json) fail("its stdout starts with { but is not JSON");
      if (json) merge(outcome, json, event);
      else if (text && (event === "UserPromptSubmit" || event === "SessionStart")) outcome.context.push(text);
    }
    return outcome;
  }
}

/** Claude Code's matcher: absent, empty or `*` matches everything; otherwise a regular expression over the tool name (nova's or Claude's). */
function matches(matcher: string | undefined, name: string | undefined): boolean {
  if (!matcher || matcher === "*" || name === undefined) return true;
  try {
    const re = new RegExp(`^(?:${matcher})$`);
    return re.test(name) || re.test(claudeName(name));
  } catch {
    return matcher === name;
  }
}

function merge(outcome: HookOutcome, json: Record<string, unknown>, event: HookEvent): void {
  if (json.continue === false) outcome.stop ??= typeof json.stopReason === "string" ? json.stopReason : `stopped by a ${event} hook`;
  const specific = (typeof json.hookSpecificOutput === "object" && json.hookSpecificOutput) || {};
  const s = specific as Record<string, unknown>;
  const reason = str(s.permissionDecisionReason) ?? str(json.reason);
  // older PreToolUse hooks answer decision: approve | block
  const decision = str(s.permissionDecision) ?? (json.decision === "approve" ? "allow" : json.decision === "block" && event === "PreToolUse" ? "deny" : undefined);
  if (decision === "allow" || decision === "deny" || decision === "ask") {
    const rank = { allow: 0, ask: 1, deny: 2 };
    if (!outcome.decision || rank[decision] > rank[outcome.decision]) {
      outcome.decision = decision;
      outcome.reason = reason;
    }
  }
  if (json.decision === "block" && event !== "PreToolUse") outcome.block ??= reason ?? `blocked by a ${event} hook`;
  if (typeof s.updatedInput === "object" && s.updatedInput !== null && !Array.isArray(s.updatedInput)) outcome.updatedInput = s.updatedInput as Record<string, unknown>;
  const context = str(s.additionalContext);
  if (context) outcome.context.push(context);
}

function claudeName(tool: string): string {
  return CLAUDE_NAMES[tool] ?? tool;
}

/** nova's arguments with Claude Code's names added beside them. */
function claudeInput(args: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...args };
  for (const [nova, claude] of Object.entries(CLAUDE_ARGS)) if (nova in args) out[claude] = args[nova];
  return out;
}

/** A hook's updatedInput back in nova's names (Claude's names win when both are there and differ: the hook wrote them). */
function novaInput(input: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...input };
  for (const [nova, claude] of Object.entries(CLAUDE_ARGS)) {
    if (claude in input) {
      out[nova] = input[claude];
      delete out[claude];
    }
  }
  return out;
}

function parseJson(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

function str(value: unknown): string | undefined {
  return typeof value === "string" && value ? value : undefined;
}
