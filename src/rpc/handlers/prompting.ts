/** prompt, steer, follow_up, abort, abort_and_prompt, permission_response, clear_queue. */
import type { CommandOf } from "../commands.ts";
import type { HandlerContext } from "./context.ts";
import type { ImageContent } from "../../core/messages.ts";
import { validateImages } from "../../tools/images.ts";

/** Images are checked on arrival so a bad one rejects the command and nothing is queued. */
function images(list: unknown[] | undefined): ImageContent[] {
  if (!list || list.length === 0) return [];
  const result = validateImages(list);
  if (!result.ok) throw new Error(result.error);
  return result.images;
}

export function promptingHandlers(ctx: HandlerContext) {
  return {
    prompt: (c: CommandOf<"prompt">) => {
      ctx.session.prompt(c.message, images(c.images), c.streamingBehavior);
      // every accepted prompt reaches the agent: nova has no local-only slash commands
      return { agentInvoked: true };
    },
    steer: (c: CommandOf<"steer">) => ctx.session.steer(c.message, images(c.images)),
    follow_up: (c: CommandOf<"follow_up">) => ctx.session.followUpMessage(c.message, images(c.images)),
    abort: () => ctx.session.abort(),
    abort_and_prompt: (c: CommandOf<"abort_and_prompt">) => ctx.session.abortAndPrompt(c.message, images(c.images)),
    permission_response: (c: CommandOf<"permission_response">) => ctx.session.answerPermission(c.requestId, c.approved),
    clear_queue: () => ctx.session.clearQueues(),
    abort_retry: () => ctx.session.abortRetry(),
    bash: (c: CommandOf<"bash">) => ctx.session.bash(c.command, c.excludeFromContext),
    abort_bash: () => ctx.session.abortBash(),
  };
}
