/**
 * The Seatbelt profile (macOS `sandbox-exec -p`) for the same policy as
 * bwrap.ts: reads allowed except the hidden paths, writes only under the cwd
 * (workspace-write), the temp dirs and the writable paths, no network unless
 * allowed. Pure: unit-tested by its text, since no macOS machine runs here.
 */
import type { SandboxPolicy } from "./policy.ts";
import { real } from "./policy.ts";

/** Devices every shell writes to; everything else under /dev stays read-only. */
const DEVICES = ["/dev/null", "/dev/zero", "/dev/tty", "/dev/dtracehelper", "/dev/stdout", "/dev/stderr"];

export function seatbeltProfile(policy: SandboxPolicy, cwd: string): string {
  const writable = [...(policy.mode === "workspace-write" ? [real(cwd)] : []), policy.tempDir, "/private/tmp", "/private/var/folders", ...policy.writable];
  const lines = [
    "(version 1)",
    "(allow default)",
    `(deny file-write* (require-all ${writable.map((p) => `(require-not (subpath ${quote(p)}))`).join(" ")} ${DEVICES.map((d) => `(require-not (literal ${quote(d)}))`).join(" ")} (require-not (regex #"^/dev/ttys[0-9]+$"))))`,
  ];
  if (policy.hidden.length > 0) lines.push(`(deny file-read* file-write* ${policy.hidden.map((p) => `(subpath ${quote(p)})`).join(" ")})`);
  if (!policy.network) lines.push("(deny network-outbound (remote ip))", "(deny network-inbound (local ip))", "(deny network-bind (local ip))");
  return lines.join("\n") + "\n";
}

export function seatbeltArgs(policy: SandboxPolicy, cwd: string, command: string[]): string[] {
  return ["/usr/bin/sandbox-exec", "-p", seatbeltProfile(policy, cwd), ...command];
}

/** An SBPL string literal. */
function quote(path: string): string {
  return `"${path.replaceAll("\\", "\\\\").replaceAll('"', '\\"')}"`;
}
