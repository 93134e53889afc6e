/** Session files, branching, stats, export and compaction. */
import type { CommandOf } from "../commands.ts";
import type { HandlerContext } from "./context.ts";
import { CommandError } from "../../agent/errors.ts";
import { entriesSince, sessionTree } from "../../session/index.ts";

export function sessionHandlers(ctx: HandlerContext) {
  return {
    new_session: (c: CommandOf<"new_session">) => {
      if (c.background && c.parentSession) throw new Error("background and parentSession cannot be combined");
      if (c.background) return ctx.conversations.newInBackground();
      return ctx.session.newSession(c.parentSession);
    },
    switch_session: (c: CommandOf<"switch_session">) => ctx.conversations.reattach(c) ?? ctx.session.switchSession(c),
    get_background_sessions: () => ctx.conversations.list(),
    cancel_background_session: (c: CommandOf<"cancel_background_session">) => ctx.conversations.cancel(c.sessionId),
    handoff: (c: CommandOf<"handoff">) => ctx.session.handoff(c.customInstructions),
    branch: (c: CommandOf<"branch">) => branch(ctx, c.entryId, c.restoreFiles),
    fork: (c: CommandOf<"fork">) => branch(ctx, c.entryId, c.restoreFiles),
    get_checkpoints: () => ctx.session.checkpoints.list(),
    get_turn_changes: (c: CommandOf<"get_turn_changes">) => ctx.session.checkpoints.changes(c.entryId),
    revert: (c: CommandOf<"revert">) => {
      if (ctx.session.isStreaming && !c.dryRun) throw new Error("Cannot revert while the agent is streaming; abort or wait for agent_end.");
      return ctx.session.checkpoints.revert(c.entryId, { dryRun: c.dryRun, paths: c.paths, force: c.force });
    },
    clone: () => ctx.session.clone(),
    get_branch_messages: () => ctx.session.branchMessages(),
    get_fork_messages: () => ctx.session.branchMessages(),
    get_entries: (c: CommandOf<"get_entries">) => {
      const { store } = ctx.session;
      const entries = entriesSince(store.entries, c.since);
      if (!entries) throw new CommandError(`Entry not found: since "${c.since}" is not the id of an entry in session ${store.sessionId}`);
      return { entries, leafId: store.leafId };
    },
    get_tree: () => ({ tree: sessionTree(ctx.session.store.entries), leafId: ctx.session.store.leafId }),
    get_session_stats: () => ctx.session.sessionStats(),
    export_html: (c: CommandOf<"export_html">) => ctx.session.exportHtml(c.outputPath),
    compact: (c: CommandOf<"compact">) => ctx.session.compact(c.customInstructions),
  };
}

/**
 * Branching at a user message hands its text back, and to the host's editor
 * to revise. With `restoreFiles` the files go back too, to how they were
 * before the tools from that entry on ran (revert before the branch, while
 * the checkpoints still belong to this session).
 */
async function branch(ctx: HandlerContext, entryId: string, restoreFiles?: boolean) {
  if (restoreFiles && ctx.session.isStreaming) throw new Error("Cannot branch while the agent is streaming; abort or wait for agent_end.");
  const files = restoreFiles ? await ctx.session.checkpoints.revert(entryId, {}) : undefined;
  const result = ctx.session.branch(entryId);
  if (result.text) ctx.bridge.ui.setEditorText(result.text);
  return files ? { ...result, files } : result;
}
