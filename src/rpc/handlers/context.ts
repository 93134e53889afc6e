import type { AgentSession } from "../../agent/session.ts";

export interface HandlerContext {
  session: AgentSession;
}
