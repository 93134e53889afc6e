/**
 * Where a conversation's hooks run (docs/permissions.md#hooks): before a tool
 * call (PreToolUse, ahead of the permission gate), after it (PostToolUse),
 * when a run starts (SessionStart's context once, UserPromptSubmit), and when
 * it would stop (Stop). Nothing here exists unless the config has `hooks`;
 * the runner itself (hooks.ts) is imported on first use.
 */
import type { HookSettings } from "../config/schema.ts";
import type { UserMessage } from "../core/messages.ts";
import { blockText } from "../core/text.ts";
import type { Tool, ToolResult } from "../tools/types.ts";
import type { HookFacts, HookOutcome, HookRunner } from "./hooks.ts";
import { userMessage } from "./queues.ts";

/** How many times in a row Stop hooks may keep a run going. */
const MAX_STOP_CONTINUES = 8;

export interface PreToolVerdict {
  refused?: string;
  args: Record<string, unknown>;
  /** the hook allowed the call: nothing asks (deny rules and plan mode still hold) */
  allow?: boolean;
  /** the hook wants the user asked, with this reason */
  ask?: string;
}

export class SessionHooks {
  private runner: Promise<HookRunner> | undefined;
  private startContext: Promise<string[]> | undefined;
  private stopActive = false;
  private stops = 0;
  /** PreToolUse context waiting for its call's result */
  private readonly toolContext = new Map<string, string[]>();

  /** undefined when the config has no hooks: then nothing about hooks is loaded */
  static create(settings: HookSettings | undefined, facts: HookFacts, startup: boolean): SessionHooks | undefined {
    if (!settings || Object.values(settings).every((list) => !list || list.length === 0)) return undefined;
    return new SessionHooks(settings, facts, startup);
  }

  private constructor(
    private readonly settings: HookSettings,
    private readonly facts: HookFacts,
    startup: boolean,
  ) {
    if (startup && settings.SessionStart?.length) this.startContext = this.load().then(async (r) => (await r.sessionStart("startup")).context);
  }

  private load(): Promise<HookRunner> {
    this.runner ??= import("./hooks.ts").then(({ HookRunner }) => new HookRunner(this.settings, this.facts));
    return this.runner;
  }

  async preToolUse(tool: Tool, args: Record<string, unknown>, toolCallId: string): Promise<PreToolVerdict> {
    if (!this.settings.PreToolUse?.length) return { args };
    const o = await (await this.load()).preToolUse(tool.name, args, toolCallId);
    if (o.context.length > 0) this.toolContext.set(toolCallId, o.context);
    if (o.block) return { args, refused: `${tool.name}: blocked by a PreToolUse hook: ${o.block}` };
    if (o.stop) return { args, refused: `${tool.name}: not run: a PreToolUse hook stopped it: ${o.stop}` };
    if (o.decision === "deny") return { args, refused: `${tool.name}: denied by a PreToolUse hook${o.reason ? `: ${o.reason}` : ""}` };
    const next = o.updatedInput ?? args;
    if (o.decision === "allow") return { args: next, allow: true };
    if (o.decision === "ask") return { args: next, ask: o.reason ?? "a PreToolUse hook asks for approval" };
    return { args: next };
  }

  async postToolUse(tool: Tool, args: Record<string, unknown>, result: ToolResult, toolCallId: string): Promise<ToolResult> {
    const notes = this.toolContext.get(toolCallId) ?? [];
    this.toolContext.delete(toolCallId);
    if (this.settings.PostToolUse?.length) {
      const response = { content: blockText(result.content), details: result.details, isError: result.isError === true };
      const o = await (await this.load()).postToolUse(tool.name, args, response, toolCallId);
      if (o.block) notes.push(o.block);
      notes.push(...o.context);
    }
    if (notes.length === 0) return result;
    return { ...result, content: [...result.content, { type: "text", text: notes.map((n) => `[hook] ${n}`).join("\n") }] };
  }

  /**
   * A run's first messages after SessionStart (once) and UserPromptSubmit:
   * their context joins the first message; a block is the reason no run starts.
   */
  async beforeRun(initial: UserMessage[]): Promise<{ messages: UserMessage[] } | { blocked: string }> {
    this.stopActive = false;
    this.stops = 0;
    const context = this.startContext ? await this.startContext : [];
    this.startContext = undefined;
    if (this.settings.UserPromptSubmit?.length) {
      const prompt = initial.map((m) => blockText(m.content)).join("\n");
      const o: HookOutcome = await (await this.load()).userPromptSubmit(prompt);
      if (o.block ?? o.stop) return { blocked: (o.block ?? o.stop)! };
      context.push(...o.context);
    }
    if (context.length === 0 || initial.length === 0) return { messages: initial };
    const [first, ...rest] = initial;
    const extra = { type: "text" as const, text: context.join("\n\n") };
    const content = typeof first!.content === "string" ? [{ type: "text" as const, text: first!.content }] : first!.content;
    return { messages: [{ ...first!, content: [...content, extra] }, ...rest] };
  }

  /** When the run would stop: a Stop hook's block keeps it going with the reason as a user message. */
  async beforeStop(): Promise<UserMessage[]> {
    if (!this.settings.Stop?.length || this.stops >= MAX_STOP_CONTINUES) return [];
    const o = await (await this.load()).stop(this.stopActive);
    if (!o.block) return [];
    this.stopActive = true;
    this.stops++;
    return [userMessage(`Stop hook: ${o.block}`, [])];
  }
}
