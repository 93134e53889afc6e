/**
 * The bubblewrap command line for one sandboxed command on Linux: the whole
 * file system read-only, the cwd (workspace-write) and the private temp dir
 * writable, a minimal /dev and /proc, no network unless allowed, the secrets
 * replaced by empty stand-ins. Pure: tested by its output.
 */
import { statSync } from "node:fs";
import type { SandboxPolicy } from "./policy.ts";
import { real } from "./policy.ts";

export function bwrapArgs(bwrap: string, policy: SandboxPolicy, cwd: string, command: string[], opts: { pty: boolean }): string[] {
  const root = real(cwd);
  const args = [bwrap, "--die-with-parent", "--unshare-pid", "--unshare-ipc", "--unshare-uts", "--cap-drop", "ALL"];
  // Without a terminal there is no job control to keep; a new session also stops TIOCSTI into the caller's terminal.
  if (!opts.pty) args.push("--new-session");
  if (!policy.network) args.push("--unshare-net");
  args.push("--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc");
  args.push("--bind", policy.tempDir, "/tmp", "--setenv", "TMPDIR", "/tmp");
  // The cwd is bound even read-only: under the private /tmp it would not exist otherwise.
  args.push(policy.mode === "workspace-write" ? "--bind" : "--ro-bind", root, root);
  for (const path of policy.writable) if (exists(path)) args.push("--bind", path, path);
  // Hidden last: a later mount covers an earlier one, so a secret inside a writable folder stays hidden.
  for (const path of policy.hidden) {
    const kind = exists(path);
    if (kind === "dir") args.push("--tmpfs", path, "--remount-ro", path);
    else if (kind === "file") args.push("--ro-bind", "/dev/null", path);
  }
  args.push("--chdir", root, "--", ...command);
  return args;
}

function exists(path: string): "dir" | "file" | undefined {
  try {
    return statSync(path).isDirectory() ? "dir" : "file";
  } catch {
    return undefined;
  }
}
