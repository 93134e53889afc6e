/** What a conversation is made from: the config and command line, and what the front end offers. */
import type { Config } from "../config/load.ts";
import type { ThinkingLevel } from "../core/enums.ts";
import type { SubagentRunner } from "../host/services.ts";
import type { Sandbox } from "../sandbox/index.ts";
import type { PermissionPrompt } from "../core/enums.ts";
import type { PermissionMode } from "./permission-mode.ts";
import type { PermissionGate } from "./permission-gate.ts";
import type { ScopedModel } from "./model-scope.ts";
import type { AgentSession } from "./session.ts";
import type { ToolboxOptions } from "./toolbox.ts";
import type { Budget } from "./budget.ts";

export interface SessionOptions extends ToolboxOptions {
  config: Config;
  cwd: string;
  /** provider/id chosen on the command line */
  model?: { provider: string; id: string };
  thinking?: ThinkingLevel;
  sessionDir?: string;
  noSession: boolean;
  systemPrompt?: string;
  appendSystemPrompt?: string;
  /** runs child agents for the `task` tool; absent in a child at the nesting limit */
  subagents?: (parent: AgentSession) => SubagentRunner | undefined;
  /** nesting depth of a child agent (0 = the host's own conversation) */
  depth?: number;
  /** a child agent is gated by its parent's gate (the parent's mode and remembered answers), its questions marked with its agentId */
  permissionGate?: PermissionGate;
  agentId?: string;
  // ----- from Pi's command line (agent/launch.ts) -----
  /** --models: what cycle_model cycles, each with its optional thinking level */
  modelScope?: ScopedModel[];
  /** --no-context-files, --no-skills */
  noContextFiles?: boolean;
  noSkills?: boolean;
  /** --no-mcp: no MCP servers are started */
  noMcp?: boolean;
  /** how flagged bash commands are asked about; "request" by default */
  permissionPrompt?: PermissionPrompt;
  /** --permission-mode; the config's permissions.mode otherwise */
  permissionMode?: PermissionMode;
  sandbox?: Sandbox;
  /** a sub-agent's runs charge the budget of the parent's running prompt */
  budget?: Budget;
}
