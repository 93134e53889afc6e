/** The sandbox's pure parts: the bubblewrap argv, the Seatbelt profile, platform detection, failure explanations. */
import { describe, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { bwrapArgs } from "../../src/sandbox/bwrap.ts";
import { explainFailure, prepareSandbox, SandboxUnavailableError, type Platform } from "../../src/sandbox/index.ts";
import { resolvePolicy, type SandboxSettings } from "../../src/sandbox/policy.ts";
import { seatbeltProfile } from "../../src/sandbox/seatbelt.ts";
import { checkCommand } from "../../src/tools/permissions.ts";
import { tempDir } from "../support/nova.ts";

const settings = (over: Partial<SandboxSettings> = {}): SandboxSettings => ({
  mode: "workspace-write",
  network: false,
  writablePaths: [],
  hidePaths: [],
  fallback: "error",
  autoAllow: true,
  mcp: false,
  ...over,
});

function fixture() {
  const home = tempDir("nova-sbx-unit-home-");
  mkdirSync(join(home, ".ssh"));
  writeFileSync(join(home, ".netrc"), "machine x password y");
  const cwd = tempDir("nova-sbx-unit-cwd-");
  return { home, cwd, novaHome: join(home, ".nova"), tempDir: tempDir("nova-sbx-unit-tmp-") };
}

/** The value after each occurrence of a flag, e.g. every --bind's source. */
function after(argv: string[], flag: string, n = 1): string[][] {
  const out: string[][] = [];
  argv.forEach((a, i) => {
    if (a === flag) out.push(argv.slice(i + 1, i + 1 + n));
  });
  return out;
}

describe("bwrapArgs", () => {
  test("read-only root, minimal /dev and /proc, the cwd and temp dir writable, no network, secrets covered, the command last", () => {
    const fx = fixture();
    const policy = resolvePolicy(settings(), fx);
    const argv = bwrapArgs("/usr/bin/bwrap", policy, fx.cwd, ["bash", "-c", "ls"], { pty: false });
    expect(argv[0]).toBe("/usr/bin/bwrap");
    expect(after(argv, "--ro-bind", 2)).toContainEqual(["/", "/"]);
    expect(after(argv, "--dev")).toEqual([["/dev"]]);
    expect(after(argv, "--proc")).toEqual([["/proc"]]);
    expect(after(argv, "--bind", 2)).toEqual([
      [policy.tempDir, "/tmp"],
      [fx.cwd, fx.cwd],
    ]);
    expect(argv).toContain("--unshare-net");
    expect(argv).toContain("--new-session");
    expect(argv).toContain("--die-with-parent");
    expect(after(argv, "--tmpfs")).toEqual([[join(fx.home, ".ssh")]]);
    expect(after(argv, "--ro-bind", 2)).toContainEqual(["/dev/null", join(fx.home, ".netrc")]);
    expect(argv.slice(-6)).toEqual(["--chdir", fx.cwd, "--", "bash", "-c", "ls"]);
    expect(argv.slice(argv.indexOf("--") + 1)).toEqual(["bash", "-c", "ls"]);
    // hides come after every writable bind, so a secret inside the cwd stays covered
    expect(argv.indexOf("--tmpfs")).toBeGreaterThan(argv.lastIndexOf("--bind"));
  });

  test("network on: no --unshare-net; read-only: the cwd bound read-only; a PTY keeps its session", () => {
    const fx = fixture();
    const net = bwrapArgs("bwrap", resolvePolicy(settings({ network: true }), fx), fx.cwd, ["true"], { pty: true });
    expect(net).not.toContain("--unshare-net");
    expect(net).not.toContain("--new-session");
    const ro = bwrapArgs("bwrap", resolvePolicy(settings({ mode: "read-only" }), fx), fx.cwd, ["true"], { pty: false });
    expect(after(ro, "--ro-bind", 2)).toContainEqual([fx.cwd, fx.cwd]);
    expect(after(ro, "--bind", 2)).toEqual([[expect.any(String), "/tmp"]]);
  });

  test("writable and hidden paths from the config, with ~ expanded; missing ones are skipped", () => {
    const fx = fixture();
    const extra = tempDir("nova-sbx-unit-extra-");
    const policy = resolvePolicy(settings({ writablePaths: [extra, "/nonexistent/nova-x"], hidePaths: ["~/.ssh", "~/missing"] }), fx);
    const argv = bwrapArgs("bwrap", policy, fx.cwd, ["true"], { pty: false });
    expect(after(argv, "--bind", 2)).toContainEqual([extra, extra]);
    expect(argv).not.toContain("/nonexistent/nova-x");
    expect(argv).not.toContain(join(fx.home, "missing"));
  });
});

describe("seatbeltProfile", () => {
  test("writes only under the cwd, the temp dirs and the writable paths; hidden paths unreadable; no IP network", () => {
    const fx = fixture();
    const policy = resolvePolicy(settings({ writablePaths: ['/Users/me/with "quote"'] }), { ...fx, home: "/Users/me" });
    const profile = seatbeltProfile(policy, "/Users/me/project");
    expect(profile.startsWith("(version 1)\n(allow default)\n")).toBe(true);
    expect(profile).toContain('(deny file-write* (require-all (require-not (subpath "/Users/me/project"))');
    expect(profile).toContain(`(require-not (subpath "${policy.tempDir}"))`);
    expect(profile).toContain('(require-not (subpath "/Users/me/with \\"quote\\""))');
    expect(profile).toContain('(require-not (literal "/dev/null"))');
    expect(profile).toContain('(deny file-read* file-write* (subpath "/Users/me/.ssh") (subpath "/Users/me/.aws")');
    expect(profile).toContain("(deny network-outbound (remote ip))");
    const balanced = [...profile].reduce((depth, c) => depth + (c === "(" ? 1 : c === ")" ? -1 : 0), 0);
    expect(balanced).toBe(0);
  });

  test("read-only leaves the cwd out of the writable list; network on adds no network rule", () => {
    const fx = fixture();
    const profile = seatbeltProfile(resolvePolicy(settings({ mode: "read-only", network: true }), fx), "/Users/me/project");
    expect(profile).not.toContain('"/Users/me/project"');
    expect(profile).not.toContain("network");
  });
});

describe("prepareSandbox", () => {
  const ctx = () => {
    const fx = fixture();
    return { novaHome: fx.novaHome, home: fx.home };
  };
  const platform = (over: Partial<Platform>): Platform => ({
    os: "linux",
    which: () => "/usr/bin/bwrap",
    exists: () => true,
    probe: () => ({ exitCode: 0, stderr: "" }),
    ...over,
  });

  test("linux with a working bwrap: active bubblewrap", () => {
    const sandbox = prepareSandbox(settings(), ctx(), platform({}));
    expect(sandbox.status).toMatchObject({ mode: "workspace-write", network: false, active: true, backend: "bubblewrap" });
    expect(sandbox.wrap(["bash", "-c", "x"], "/", { pty: false })[0]).toBe("/usr/bin/bwrap");
  });

  test("no bwrap, or a probe that fails: refused with what to do; fallback warn: inactive and said", () => {
    expect(() => prepareSandbox(settings(), ctx(), platform({ which: () => null }))).toThrow(SandboxUnavailableError);
    expect(() => prepareSandbox(settings(), ctx(), platform({ which: () => null }))).toThrow(/apt-get install bubblewrap/);
    expect(() => prepareSandbox(settings(), ctx(), platform({ probe: () => ({ exitCode: 1, stderr: "bwrap: No permissions to creating new namespace" }) }))).toThrow(
      /No permissions to creating new namespace.*user namespaces/,
    );
    const warned = prepareSandbox(settings({ fallback: "warn" }), ctx(), platform({ which: () => null }));
    expect(warned.status.active).toBe(false);
    expect(warned.status.warning).toContain("unsandboxed");
    expect(warned.wrap(["bash", "-c", "x"], "/", { pty: false })).toEqual(["bash", "-c", "x"]);
  });

  test("macOS uses sandbox-exec with the profile; Windows is not available", () => {
    const mac = prepareSandbox(settings(), ctx(), platform({ os: "darwin" }));
    expect(mac.status.backend).toBe("seatbelt");
    const argv = mac.wrap(["/bin/bash", "-c", "ls"], "/Users/me/p", { pty: false });
    expect(argv.slice(0, 2)).toEqual(["/usr/bin/sandbox-exec", "-p"]);
    expect(argv[2]).toContain("(version 1)");
    expect(argv.slice(3)).toEqual(["/bin/bash", "-c", "ls"]);
    expect(() => prepareSandbox(settings(), ctx(), platform({ os: "win32" }))).toThrow("the sandbox is not available on Windows");
  });
});

describe("explainFailure", () => {
  test("names the sandbox for read-only file systems and, with network off, failed connections", () => {
    const ws = { mode: "workspace-write" as const, network: false };
    expect(explainFailure("touch: cannot touch '/etc/x': Read-only file system", ws)).toContain("write outside the workspace");
    expect(explainFailure("curl: (6) Could not resolve host: example.com", ws)).toContain("no network access");
    expect(explainFailure("curl: (6) Could not resolve host: example.com", { ...ws, network: true })).toBeUndefined();
    expect(explainFailure("grep: no match", ws)).toBeUndefined();
    expect(explainFailure("sh: x: Read-only file system", { mode: "read-only", network: true })).toContain("read-only");
  });
});

describe("confinable verdicts", () => {
  const rules = { ask: [], allow: [], deny: [] };
  const cwd = "/work/project";
  test("flagged only for changing files in the cwd: confinable", () => {
    for (const command of ["rm -rf build", "chmod -R 755 .", "git clean -fdx", "rm $X", "sudo make install"]) {
      expect(checkCommand(command, rules, cwd)).toMatchObject({ verdict: "ask", confinable: true });
    }
  });
  test("writes outside the cwd, remotes and the user's own ask rules are not", () => {
    for (const command of ["rm -rf ~", "rm -rf /", "echo x > /etc/passwd", "cp a /usr/bin/", "git push --force", "ls && rm -rf build && touch ../x"]) {
      expect(checkCommand(command, rules, cwd)).toMatchObject({ verdict: "ask", confinable: false });
    }
    expect(checkCommand("rm -rf build; npm publish", { ...rules, ask: ["npm publish"] }, cwd)).toMatchObject({ verdict: "ask", confinable: false });
  });
});
