/**
 * How a question is asked (`permissions.prompt`): `request` sends nova's
 * permission_request; `ui` asks with an extension_ui_request `confirm`, which
 * Pi hosts already answer, carrying the same facts (kind, reason, path, diff);
 * `allow` and `deny` decide unattended. Without a dialog channel (ACP) `ui`
 * falls back to `request`, which the ACP front end turns into
 * session/request_permission.
 */
import type { PermissionPrompt } from "../core/enums.ts";
import type { HostUi } from "../host/services.ts";
import type { AskedQuestion, PermissionChannel } from "./permission-gate.ts";

export function permissionChannel(prompt: PermissionPrompt, channels: { request: PermissionChannel; ui?: HostUi }): PermissionChannel {
  const { ui } = channels;
  switch (prompt) {
    case "allow":
      return async () => ({ approved: true });
    case "deny":
      return async () => ({ approved: false });
    case "ui":
      if (!ui) return channels.request;
      return async (question, signal) => ({ approved: await ui.confirm(confirmTitle(question), confirmMessage(question), { signal }) });
    case "request":
      return channels.request;
  }
}

function confirmTitle(q: AskedQuestion): string {
  const who = q.agentId ? ` (sub-agent ${q.agentId})` : "";
  if (q.kind === "write" || q.kind === "edit") return `Allow ${q.toolName}${who} to change this file?`;
  if (q.kind === "bash") return `Allow ${q.toolName}${who} to run this command?`;
  return `Allow the tool ${q.toolName}${who} to run?`;
}

/** The command or path first (what a Pi host shows), then why, then the diff. */
function confirmMessage(q: AskedQuestion): string {
  const lines = [q.path ?? q.command];
  if (q.reason) lines.push(`Flagged because ${q.reason}.`);
  if (q.diff) lines.push("", q.diff);
  return lines.join("\n");
}
