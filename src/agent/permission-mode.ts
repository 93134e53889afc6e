/**
 * The permission mode (`--permission-mode`, `permissions.mode`,
 * `set_permission_mode`, ACP `session/set_mode`): what the gate does with a
 * call that would ask (docs/permissions.md). Deny rules hold in every mode.
 */
import type { PermissionMode } from "../core/enums.ts";

export type { PermissionMode };

/** What ACP editors show for each mode. */
export const MODE_DESCRIPTIONS: Record<PermissionMode, { name: string; description: string }> = {
  default: { name: "Default", description: "Ask before flagged commands, MCP tools and edits outside the project" },
  acceptEdits: { name: "Accept edits", description: "Edits inside the project and commands that only change its files run unasked" },
  plan: { name: "Plan", description: "Read and investigate only; nothing that changes files runs" },
  bypass: { name: "Bypass permissions", description: "Nothing asks; deny rules still hold" },
  dontAsk: { name: "Don't ask", description: "What would ask is denied, for unattended runs" },
};

/** Added to the system prompt while the session is in plan mode. */
export const PLAN_MODE_PROMPT = `# Plan mode
The session is in plan mode: tools that change files or the world (write, edit, bash commands that do more than read, mutating MCP or host tools) are refused. Investigate with tools that read, then answer with a concrete, step-by-step plan of the changes you would make and why. Do not try to work around plan mode; the user leaves it to carry the plan out.`;
