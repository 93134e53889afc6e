import type { AgentSession } from "../../agent/session.ts";
import type { Conversations } from "../../agent/conversations.ts";

/** What handlers act on: always the conversation the host is attached to right now. */
export class HandlerContext {
  constructor(readonly conversations: Conversations) {}

  get session(): AgentSession {
    return this.conversations.current;
  }
}
