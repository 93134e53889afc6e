/**
 * What the sandbox allows, independent of the platform that enforces it:
 * the settings from the config and the command line, resolved into absolute
 * paths once at start. bwrap.ts and seatbelt.ts turn a policy into argv or a
 * profile; neither runs anything.
 */
import { existsSync, realpathSync } from "node:fs";
import { homedir } from "node:os";
import { isAbsolute, join, resolve } from "node:path";
import type { ConfigFile } from "../config/schema.ts";

export type SandboxSettings = ConfigFile["sandbox"];
export type SandboxMode = SandboxSettings["mode"];

/** A policy with every path absolute and real (symlinks resolved where the path exists). */
export interface SandboxPolicy {
  mode: Exclude<SandboxMode, "off">;
  network: boolean;
  writable: string[];
  /** the private temp dir, writable, seen as /tmp inside (bubblewrap) */
  tempDir: string;
  hidden: string[];
}

/** Secrets a command never needs to see, relative to the home folder. */
const HOME_SECRETS = [".ssh", ".aws", ".gnupg", ".netrc", ".config/gcloud", ".azure", ".kube", ".docker/config.json", ".npmrc", ".git-credentials"];

export function resolvePolicy(settings: SandboxSettings, ctx: { tempDir: string; home?: string; novaHome: string; configFile?: string }): SandboxPolicy {
  if (settings.mode === "off") throw new Error("resolvePolicy: the sandbox is off");
  const home = ctx.home || homedir();
  const absolute = (p: string) => real(isAbsolute(p) ? p : resolve(expandHome(p, home)));
  const hidden = [
    ...HOME_SECRETS.map((p) => join(home, p)),
    join(ctx.novaHome, "auth.json"),
    join(ctx.novaHome, "config.yml"),
    ...(ctx.configFile ? [ctx.configFile] : []),
    ...settings.hidePaths,
  ].map(absolute);
  return {
    mode: settings.mode,
    network: settings.network,
    writable: settings.writablePaths.map(absolute),
    tempDir: real(ctx.tempDir),
    hidden: [...new Set(hidden)],
  };
}

function expandHome(path: string, home: string): string {
  if (path === "~") return home;
  return path.startsWith("~/") ? join(home, path.slice(2)) : path;
}

/** The real path when it exists: a bind of a symlink would bind its target anyway, and the hide must match it. */
export function real(path: string): string {
  try {
    return existsSync(path) ? realpathSync(path) : path;
  } catch {
    return path;
  }
}
