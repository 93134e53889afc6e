/** prompt, steer, follow_up, abort, abort_and_prompt, permission_response, clear_queue. */
import type { CommandOf } from "../commands.ts";
import type { HandlerContext } from "./context.ts";
import type { ImageContent } from "../../core/messages.ts";
import type { Disposition, RunOptions } from "../../agent/session.ts";
import { runOptions } from "../../agent/run-options.ts";
import { validateImages } from "../../tools/images.ts";

/** Images are checked on arrival so a bad one rejects the command and nothing is queued. */
function images(list: unknown[] | undefined): ImageContent[] {
  if (!list || list.length === 0) return [];
  const result = validateImages(list);
  if (!result.ok) throw new Error(result.error);
  return result.images;
}

/** Pi 1.6's answer to a prompt, steer or follow-up: whether a run started or the message waits. */
function answer(disposition: Disposition) {
  return { agentInvoked: true, disposition };
}

export function promptingHandlers(ctx: HandlerContext) {
  return {
    // every accepted prompt reaches the agent (nova has no local-only slash commands): agentInvoked is always true;
    // `/mcp__server__prompt args` first becomes the text the server's prompt gives
    prompt: async (c: CommandOf<"prompt">) => {
      const attached = images(c.images);
      const options = await runOptions(c);
      const expanded = c.message.startsWith("/") ? await ctx.session.options.mcp?.expand(c.message) : undefined;
      if (expanded) return answer(ctx.session.prompt(expanded.text, [...attached, ...expanded.images], c.streamingBehavior, options));
      return answer(ctx.session.prompt(c.message, attached, c.streamingBehavior, options));
    },
    steer: (c: CommandOf<"steer">) => answer(ctx.session.enqueue("steer", c.message, images(c.images))),
    follow_up: async (c: CommandOf<"follow_up">) => {
      const attached = images(c.images);
      return answer(ctx.session.enqueue("followUp", c.message, attached, await runOptions(c)));
    },
    abort: () => ctx.session.abort(),
    abort_and_prompt: async (c: CommandOf<"abort_and_prompt">) => {
      const attached = images(c.images);
      const options = await runOptions(c);
      return answer(await abortAndPrompt(ctx, c.message, attached, options));
    },
    permission_response: (c: CommandOf<"permission_response">) =>
      ctx.session.answerPermission(c.requestId, { approved: c.approved, ...(c.remember ? { remember: c.remember } : {}) }),
    clear_queue: () => ctx.session.queues.clear(),
    abort_retry: () => ctx.session.abortRetry(),
    bash: (c: CommandOf<"bash">) => ctx.session.userBash.run(c.command, c.excludeFromContext, c.id),
    abort_bash: () => ctx.session.userBash.abort(),
  };
}

async function abortAndPrompt(ctx: HandlerContext, text: string, list: ImageContent[], options: RunOptions | undefined): Promise<Disposition> {
  await ctx.session.abort();
  return ctx.session.prompt(text, list, undefined, options);
}
