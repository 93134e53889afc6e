/**
 * The permission mode (`--permission-mode`, `permissions.mode`,
 * `set_permission_mode`): what a flagged tool call does. Deny rules are
 * checked before any of this and hold in every mode.
 */
import type { PermissionMode } from "../core/enums.ts";
import { ToolError, type PermissionAsker } from "../tools/types.ts";

export type { PermissionMode };

/** An asker that applies the mode read at each call, then (in `default`) asks the host. */
export function askInMode(mode: () => PermissionMode, ask: PermissionAsker): PermissionAsker {
  return (request, signal) => {
    const current = mode();
    if (current === "bypass") return Promise.resolve(true);
    if (current === "default") return ask(request, signal);
    const why = request.reason ? ` (flagged because ${request.reason})` : "";
    throw new ToolError(
      `${request.toolName}: not run: ${JSON.stringify(request.command)} needs approval${why}, and the permission mode is dontAsk, ` +
        `which denies what would ask. To allow it, pass --permission-mode bypass or add an allow rule for it to permissions.${request.arguments ? "mcp" : "bash"}.allow in the config.`,
      { permissionDenied: true, permissionMode: current, command: request.command },
    );
  };
}
