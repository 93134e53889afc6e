import type { AgentSession } from "../../agent/session.ts";
import type { Conversations } from "../../agent/conversations.ts";
import type { Subagents } from "../../agent/subagents.ts";
import type { Config } from "../../config/load.ts";
import type { Tool } from "../../tools/types.ts";
import type { HostBridge } from "../host-bridge.ts";
import type { McpHub } from "../../mcp/index.ts";

/** What handlers act on: always the conversation the host is attached to right now. */
export class HandlerContext {
  /** host-defined tools (set_host_tools): global to the process, like the URI schemes */
  hostTools: Tool[] = [];
  conversations!: Conversations;

  constructor(
    readonly config: Config,
    readonly bridge: HostBridge,
    readonly subagents: Subagents,
    readonly mcp: McpHub,
  ) {}

  get session(): AgentSession {
    return this.conversations.current;
  }
}
