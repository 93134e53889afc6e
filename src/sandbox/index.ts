/**
 * The OS sandbox for the commands the model runs (docs/sandbox.md). Loaded
 * only when the config or the command line turns it on: `prepareSandbox`
 * checks once, at start, that the platform can enforce the policy, and the
 * result wraps each shell's argv. Never silently unsandboxed: when the
 * sandbox cannot run, start fails, or (fallback "warn") the status says so.
 */
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { bwrapArgs } from "./bwrap.ts";
import { type SandboxPolicy, type SandboxSettings, resolvePolicy } from "./policy.ts";
import { seatbeltArgs } from "./seatbelt.ts";

export type { SandboxMode, SandboxSettings } from "./policy.ts";

export interface SandboxStatus {
  mode: SandboxSettings["mode"];
  network: boolean;
  writablePaths: string[];
  /** true when commands really run confined */
  active: boolean;
  backend?: "bubblewrap" | "seatbelt";
  /** why the sandbox is not active although it was asked for */
  warning?: string;
}

export interface Sandbox {
  readonly status: SandboxStatus;
  readonly autoAllow: boolean;
  /** the argv that runs `command` confined in `cwd` */
  wrap(command: string[], cwd: string, opts: { pty: boolean }): string[];
  /** a sentence for the model when a failed command's output looks like the sandbox's doing */
  explain(output: string): string | undefined;
}

export class SandboxUnavailableError extends Error {}

export interface Platform {
  os: NodeJS.Platform;
  which: (name: string) => string | null;
  exists: (path: string) => boolean;
  probe: (argv: string[]) => { exitCode: number; stderr: string };
}

const realPlatform: Platform = {
  os: process.platform,
  which: (name) => Bun.which(name),
  exists: existsSync,
  probe: (argv) => {
    const result = Bun.spawnSync(argv, { stdin: "ignore", stdout: "ignore", stderr: "pipe" });
    return { exitCode: result.exitCode ?? 1, stderr: result.stderr.toString().trim() };
  },
};

/**
 * Checks that the sandbox can run here and returns it. Throws
 * SandboxUnavailableError with a sentence saying what to install, unless
 * `fallback: "warn"`, which returns an inactive sandbox whose status says why.
 */
export function prepareSandbox(settings: SandboxSettings, ctx: { novaHome: string; home?: string; configFile?: string }, platform: Platform = realPlatform): Sandbox {
  const tempDir = mkdtempSync(join(tmpdir(), "nova-sandbox-"));
  process.once("exit", () => rmSync(tempDir, { recursive: true, force: true }));
  const policy = resolvePolicy(settings, { ...ctx, tempDir });
  const base = { mode: settings.mode, network: settings.network, writablePaths: policy.writable };
  const backend = detect(policy, platform);
  if (typeof backend === "string") {
    if (settings.fallback !== "warn") throw new SandboxUnavailableError(backend);
    return {
      status: { ...base, active: false, warning: `${backend}; commands run unsandboxed (sandbox.fallback: warn)` },
      autoAllow: false,
      wrap: (command) => command,
      explain: () => undefined,
    };
  }
  return {
    status: { ...base, active: true, backend: backend.name },
    autoAllow: settings.autoAllow,
    wrap: backend.wrap,
    explain: (output) => explainFailure(output, policy),
  };
}

type Backend = { name: "bubblewrap" | "seatbelt"; wrap: Sandbox["wrap"] };

/** The backend, or a sentence saying why there is none. */
function detect(policy: SandboxPolicy, platform: Platform): Backend | string {
  if (platform.os === "linux") {
    const bwrap = platform.which("bwrap");
    if (!bwrap)
      return "the sandbox needs bubblewrap, which is not installed: install it (Debian/Ubuntu: apt-get install bubblewrap; Fedora: dnf install bubblewrap) or set sandbox.mode: off";
    // The same mounts and namespaces a command gets, read-only so the probe leaves nothing behind.
    const probe = platform.probe(bwrapArgs(bwrap, { ...policy, mode: "read-only" }, "/", ["true"], { pty: false }));
    if (probe.exitCode !== 0) {
      return `bubblewrap cannot create a sandbox here (${probe.stderr || `exit ${probe.exitCode}`}); unprivileged user namespaces may be disabled (sysctl kernel.unprivileged_userns_clone=1, or kernel.apparmor_restrict_unprivileged_userns=0)`;
    }
    return { name: "bubblewrap", wrap: (command, cwd, opts) => bwrapArgs(bwrap, policy, cwd, command, opts) };
  }
  if (platform.os === "darwin") {
    if (!platform.exists("/usr/bin/sandbox-exec")) return "the sandbox needs /usr/bin/sandbox-exec, which is missing";
    return { name: "seatbelt", wrap: (command, cwd) => seatbeltArgs(policy, cwd, command) };
  }
  return `the sandbox is not available on ${platform.os === "win32" ? "Windows" : platform.os}`;
}

const READ_ONLY = /Read-only file system|Operation not permitted/;
const NO_NETWORK =
  /Network is unreachable|Could not resolve host|Temporary failure in name resolution|Name or service not known|nodename nor servname|getaddrinfo|No route to host|Connection refused/i;

/** Output of a failed command that reads like the sandbox stopped it. */
export function explainFailure(output: string, policy: Pick<SandboxPolicy, "mode" | "network">): string | undefined {
  if (/Read-only file system/.test(output) || (policy.mode === "read-only" && READ_ONLY.test(output))) {
    return policy.mode === "read-only"
      ? "blocked by the sandbox: the sandbox is read-only, nothing may be written"
      : "blocked by the sandbox: write outside the workspace (only the cwd, the temp dir and the configured writablePaths are writable)";
  }
  if (!policy.network && NO_NETWORK.test(output)) return "blocked by the sandbox: no network access (sandbox.network is false)";
  return undefined;
}
