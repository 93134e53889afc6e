/**
 * How a flagged bash command is asked about (`permissions.prompt`):
 * `request` sends nova's permission_request; `ui` asks with an
 * extension_ui_request `confirm`, which Pi hosts already answer; `allow` and
 * `deny` decide unattended. Without a dialog channel (ACP) `ui` falls back
 * to `request`, which the ACP front end turns into session/request_permission.
 */
import type { PermissionPrompt } from "../core/enums.ts";
import type { HostUi } from "../host/services.ts";
import type { PermissionAsker } from "../tools/types.ts";

export function permissionAsker(prompt: PermissionPrompt, channels: { request: PermissionAsker; ui?: HostUi }): PermissionAsker {
  const { ui } = channels;
  switch (prompt) {
    case "allow":
      return async () => true;
    case "deny":
      return async () => false;
    case "ui":
      if (!ui) return channels.request;
      return (request, signal) => ui.confirm(`Allow ${request.toolName} to run this command?`, request.command, { signal });
    case "request":
      return channels.request;
  }
}
