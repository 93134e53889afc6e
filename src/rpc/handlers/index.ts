/** Every command family's handlers, as one dispatch table for the server. */
import type { Dispatch } from "../server.ts";
import type { HandlerContext } from "./context.ts";
import { promptingHandlers } from "./prompting.ts";
import { stateHandlers } from "./state.ts";
import { sessionHandlers } from "./session.ts";
import { hostHandlers, replyHandlers } from "./host.ts";

export function createDispatch(context: HandlerContext): Dispatch {
  return {
    commands: { ...promptingHandlers(context), ...stateHandlers(context), ...sessionHandlers(context), ...hostHandlers(context) },
    replies: replyHandlers(context),
  };
}
