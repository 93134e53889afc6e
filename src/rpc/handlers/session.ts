/** Session files, branching, stats, export and compaction. */
import type { CommandOf } from "../commands.ts";
import type { HandlerContext } from "./context.ts";

export function sessionHandlers({ session }: HandlerContext) {
  return {
    new_session: (c: CommandOf<"new_session">) => {
      if (c.background && c.parentSession) throw new Error("background and parentSession cannot be combined");
      return session.newSession(c.parentSession);
    },
    switch_session: (c: CommandOf<"switch_session">) => session.switchSession(c),
    branch: (c: CommandOf<"branch">) => session.branch(c.entryId),
    fork: (c: CommandOf<"fork">) => session.branch(c.entryId),
    get_branch_messages: () => session.branchMessages(),
    get_fork_messages: () => session.branchMessages(),
    get_session_stats: () => session.sessionStats(),
    export_html: (c: CommandOf<"export_html">) => session.exportHtml(c.outputPath),
    compact: (c: CommandOf<"compact">) => session.compact(c.customInstructions),
  };
}
