/** Session files, branching, stats, export and compaction. */
import type { CommandOf } from "../commands.ts";
import type { HandlerContext } from "./context.ts";

export function sessionHandlers(ctx: HandlerContext) {
  return {
    new_session: (c: CommandOf<"new_session">) => {
      if (c.background && c.parentSession) throw new Error("background and parentSession cannot be combined");
      if (c.background) return ctx.conversations.newInBackground();
      return ctx.session.files.newSession(c.parentSession);
    },
    switch_session: (c: CommandOf<"switch_session">) => ctx.conversations.reattach(c) ?? ctx.session.files.switchSession(c),
    get_background_sessions: () => ctx.conversations.list(),
    cancel_background_session: (c: CommandOf<"cancel_background_session">) => ctx.conversations.cancel(c.sessionId),
    handoff: (c: CommandOf<"handoff">) => ctx.session.files.handoff(c.customInstructions),
    branch: (c: CommandOf<"branch">) => branch(ctx, c.entryId),
    fork: (c: CommandOf<"fork">) => branch(ctx, c.entryId),
    clone: () => ctx.session.files.clone(),
    get_branch_messages: () => ctx.session.files.branchMessages(),
    get_fork_messages: () => ctx.session.files.branchMessages(),
    get_session_stats: () => ctx.session.files.sessionStats(),
    export_html: (c: CommandOf<"export_html">) => ctx.session.files.exportHtml(c.outputPath),
    compact: (c: CommandOf<"compact">) => ctx.session.compact(c.customInstructions),
  };
}

/** Branching at a user message hands its text back, and to the host's editor to revise. */
function branch(ctx: HandlerContext, entryId: string) {
  const result = ctx.session.files.branch(entryId);
  if (result.text) ctx.bridge.ui.setEditorText(result.text);
  return result;
}
