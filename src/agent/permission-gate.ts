/**
 * The permission gate: one place in front of every tool call that decides
 * `allow | ask | deny` from the mode, the rules and the call
 * (docs/permissions.md). Before a call runs, `check` refuses what the mode or
 * a deny rule forbids and asks about write/edit targets outside the cwd or
 * protected, and about host tools marked `mutating`. Tools that judge their
 * own calls (bash's command check, an MCP tool's rules) ask through `asker`,
 * which applies the same mode, the answers remembered for the session, and
 * saves the ones to remember always.
 */
import type { PermissionKind, PermissionMode, RememberScope } from "../core/enums.ts";
import { matcher } from "../core/patterns.ts";
import { authPath } from "../config/auth.ts";
import { configPath, type Config } from "../config/load.ts";
import { addConfigRule } from "../config/remember.ts";
import { HostGone } from "../host/pending.ts";
import { readOnlyCommand } from "../tools/read-only.ts";
import { ToolError, type PermissionAsker, type PermissionQuestion, type Tool } from "../tools/types.ts";
import { changeDiff, fileTarget, protectedBy } from "./permission-files.ts";
import { PermissionWithdrawn, type PermissionAnswer } from "./permission-requests.ts";

/** Where a tool comes from: nova's own, the host's (set_host_tools), an MCP server's. */
export type ToolOrigin = "builtin" | "host" | "mcp";

export type AskedQuestion = PermissionQuestion & { kind: PermissionKind };

/** How a question reaches the user: permission_request, a ui confirm, ACP's session/request_permission, or a fixed answer. */
export type PermissionChannel = (question: AskedQuestion, signal: AbortSignal) => Promise<PermissionAnswer>;

export interface GateOptions {
  cwd: string;
  config: Pick<Config, "filePermissions" | "toolPermissions" | "file" | "novaHome">;
  mode(): PermissionMode;
  channel: PermissionChannel;
  /** a rule to remember always could not be saved */
  warn(text: string): void;
}

export interface CallFacts {
  toolCallId: string;
  origin: ToolOrigin;
  /** set when a sub-agent's call is checked */
  agentId?: string;
  /** the path is served by the host (a URI scheme it registered), not the disk */
  hostPath?(path: string): boolean;
  /** a PreToolUse hook allowed the call: nothing asks (deny rules and plan mode still hold) */
  allow?: boolean;
  /** a PreToolUse hook wants the user asked, for this reason */
  ask?: string;
}

/** Where an answer to remember always is saved, per kind. */
const RULE_LISTS: Record<PermissionKind, string[]> = {
  bash: ["permissions", "bash"],
  mcp: ["permissions", "mcp"],
  write: ["permissions", "files"],
  edit: ["permissions", "files"],
  host: ["permissions", "tools"],
};

export class PermissionGate {
  /** answers remembered for the session: rule key → allowed */
  private readonly remembered = new Map<string, boolean>();
  private readonly ownFiles: string[];

  constructor(private readonly options: GateOptions) {
    const { config, cwd } = options;
    this.ownFiles = [configPath(config), authPath(config.novaHome)].map((file) => fileTarget(cwd, file).path);
  }

  get mode(): PermissionMode {
    return this.options.mode();
  }

  /** The asker a tool calls with its own question; `agentId` marks a sub-agent's. */
  asker(agentId?: string): PermissionAsker {
    return (question, signal) => this.ask(agentId ? { ...question, agentId } : question, signal);
  }

  /**
   * Decides one call before it runs: a refusal the model sees as the tool's
   * error, or go on; `approved` when the user (or a hook) already said yes, so
   * the tool's own question is not asked again.
   */
  async check(tool: Tool, args: Record<string, unknown>, facts: CallFacts, signal: AbortSignal): Promise<{ refused: string } | { approved: boolean }> {
    const { toolPermissions } = this.options.config;
    const denied = toolPermissions.deny.find((rule) => matcher(rule)(tool.name));
    if (denied) return { refused: `${tool.name}: not run: blocked by the deny rule "${denied}" in permissions.tools` };
    if (this.mode === "plan") {
      const refusal = planRefusal(tool, args, facts.origin);
      if (refusal) return { refused: refusal };
    }
    const file = facts.origin === "builtin" && (tool.name === "write" || tool.name === "edit") ? this.fileFacts(tool.name, args, facts) : undefined;
    if (file?.refused !== undefined) return { refused: file.refused };
    if (facts.allow) return { approved: true };
    const reason = facts.ask ?? file?.reason ?? this.hostReason(tool, facts);
    if (!reason) return { approved: false };
    const question = file ? file.question(reason) : this.toolQuestion(tool, args, facts, reason);
    const approved = await this.ask(question, signal, file?.diff);
    if (approved) return { approved: true };
    return {
      refused: file
        ? `${tool.name}: permission denied by the user (${file.path} was flagged because ${reason}); nothing was written`
        : `${tool.name}: permission denied by the user; it was not run`,
    };
  }

  private hostReason(tool: Tool, facts: CallFacts): string | undefined {
    if (facts.origin !== "host" || tool.mutating !== true) return undefined;
    return this.options.config.toolPermissions.allow.some((rule) => matcher(rule)(tool.name)) ? undefined : "the host marked this tool as mutating";
  }

  /** The question about a call that is not a file change (a host tool, or a call a hook wants asked about). */
  private toolQuestion(tool: Tool, args: Record<string, unknown>, facts: CallFacts, reason: string): AskedQuestion {
    const shown = JSON.stringify(args);
    const bash = facts.origin === "builtin" && tool.name === "bash" && typeof args.command === "string";
    const kind: PermissionKind = bash ? "bash" : facts.origin === "mcp" ? "mcp" : "host";
    return {
      toolName: tool.name,
      kind,
      command: bash ? (args.command as string) : `${tool.name} ${shown.length > 500 ? `${shown.slice(0, 500)}…` : shown}`,
      reason,
      ...(bash ? {} : { arguments: args }),
      toolCallId: facts.toolCallId,
      ...(facts.agentId ? { agentId: facts.agentId } : {}),
    };
  }

  /** A write/edit's target: refused by a deny rule, or why it would ask (if it would), and how to ask. */
  private fileFacts(name: "write" | "edit", args: Record<string, unknown>, facts: CallFacts) {
    if (typeof args.path !== "string" || facts.hostPath?.(args.path)) return undefined;
    const shown = args.path;
    const target = fileTarget(this.options.cwd, shown);
    const rules = this.options.config.filePermissions;
    const denied = protectedBy(target.path, rules.deny);
    if (denied) return { refused: `${name}: not run: ${target.path} matches the deny rule "${denied}" in permissions.files` };
    const own = this.ownFiles.includes(target.path);
    const pattern = own ? undefined : protectedBy(target.path, rules.protected);
    const unasked = protectedBy(target.path, rules.allow) !== undefined || (this.mode === "acceptEdits" && target.inside);
    const reason = unasked
      ? undefined
      : own
        ? "it is nova's own config or auth file"
        : !target.inside
          ? `it writes outside the working folder (${target.path})`
          : pattern
            ? `it matches the protected pattern "${pattern}"`
            : undefined;
    return {
      path: target.path,
      reason,
      question: (why: string): AskedQuestion => ({
        toolName: name,
        kind: name,
        command: `${name} ${target.path}`,
        reason: why,
        toolCallId: facts.toolCallId,
        path: target.path,
        ...(facts.agentId ? { agentId: facts.agentId } : {}),
      }),
      diff: () => {
        const diff = changeDiff(name, args, target.path, shown);
        return diff === undefined ? {} : { diff };
      },
    };
  }

  /** Mode, remembered answers, then the channel; a withdrawn question fails as cancelled before an answer. */
  private async ask(question: PermissionQuestion, signal: AbortSignal, details?: () => Partial<PermissionQuestion>): Promise<boolean> {
    const kind = question.kind ?? (question.arguments ? "mcp" : "bash");
    const key = ruleKey(kind, question);
    const known = this.remembered.get(key);
    if (known !== undefined) return known;
    const mode = this.mode;
    if (mode === "bypass") return true;
    if (mode === "acceptEdits" && question.confinable) return true;
    if (mode === "dontAsk") throw dontAsk(question, kind);
    const { confinable: _, ...asked } = question;
    let answer: PermissionAnswer;
    try {
      answer = await this.options.channel({ ...asked, kind, ...details?.() }, signal);
    } catch (error) {
      if (error instanceof PermissionWithdrawn) throw cancelled(question, error.message);
      // never asked (the host was gone already): the tool says so in its own words
      if (error instanceof HostGone) throw notAsked(question, error.message);
      if (signal.aborted) throw cancelled(question, "the turn was aborted");
      throw error;
    }
    if (signal.aborted) throw cancelled(question, "the turn was aborted");
    if (answer.remember) this.remember(kind, question, key, answer.approved, answer.remember);
    return answer.approved;
  }

  private remember(kind: PermissionKind, question: PermissionQuestion, key: string, approved: boolean, scope: RememberScope): void {
    this.remembered.set(key, approved);
    if (scope !== "always") return;
    const file = configPath(this.options.config);
    const path = [...RULE_LISTS[kind], approved ? "allow" : "deny"];
    try {
      addConfigRule(file, path, ruleValue(kind, question));
    } catch (error) {
      this.options.warn(`the answer for ${question.command} holds for this session only: ${(error as Error).message}`);
    }
  }
}

/** What plan mode refuses: every tool that may change something, except bash commands that only read and `task` (its child is in plan mode too). */
function planRefusal(tool: Tool, args: Record<string, unknown>, origin: ToolOrigin): string | undefined {
  const advice =
    "Plan mode is on: nothing that changes files or the world runs. Investigate with tools that read, then present your plan; the user leaves plan mode to carry it out.";
  if (origin === "builtin") {
    if (tool.name === "task" || tool.mutating === false) return undefined;
    if (tool.name === "bash") {
      const check = typeof args.command === "string" ? readOnlyCommand(args.command) : { readOnly: true as const };
      return check.readOnly ? undefined : `bash: not run: ${check.reason}, and only commands that read run in plan mode. ${advice}`;
    }
    return `${tool.name}: not run. ${advice}`;
  }
  // a host tool says when it mutates; an MCP tool that does not say it only reads is taken to mutate
  const mutates = origin === "host" ? tool.mutating === true : tool.mutating !== false;
  return mutates ? `${tool.name}: not run. ${advice}` : undefined;
}

function ruleKey(kind: PermissionKind, question: PermissionQuestion): string {
  return `${kind === "edit" ? "write" : kind}\u0000${ruleValue(kind, question)}`;
}

/** The rule a remembered answer becomes: the command line, the file, or the tool's name. */
function ruleValue(kind: PermissionKind, question: PermissionQuestion): string {
  if (kind === "bash") return question.command;
  if (kind === "write" || kind === "edit") return question.path ?? question.command;
  return question.toolName;
}

function cancelled(question: PermissionQuestion, why: string): ToolError {
  return new ToolError(`${question.toolName}: not run: the permission request was cancelled before an answer (${why})`, { permissionCancelled: true });
}

function notAsked(question: PermissionQuestion, why: string): ToolError {
  const flagged = question.reason ? ` (${question.reason})` : "";
  const what = question.kind === "bash" || (!question.kind && !question.arguments) ? "this command" : "this call";
  return new ToolError(`${question.toolName}: ${what} needs the user's approval${flagged}, but ${why}; it was not run`, { permissionCancelled: true });
}

function dontAsk(question: PermissionQuestion, kind: PermissionKind): ToolError {
  const why = question.reason ? ` (flagged because ${question.reason})` : "";
  return new ToolError(
    `${question.toolName}: not run: ${JSON.stringify(question.command)} needs approval${why}, and the permission mode is dontAsk, ` +
      `which denies what would ask. To allow it, pass --permission-mode bypass or add an allow rule for it to ${RULE_LISTS[kind].join(".")}.allow in the config.`,
    { permissionDenied: true, permissionMode: "dontAsk", command: question.command },
  );
}
