/** Version, target and commit: baked in by build.ts, read from the tree when run from source. */
declare const NOVA_BUILD: { version: string; target: string; commit: string } | undefined;

import pkg from "../../package.json" with { type: "json" };

export function versionInfo(): { version: string; target: string; commit: string } {
  if (typeof NOVA_BUILD !== "undefined") return NOVA_BUILD;
  return { version: pkg.version, target: `${process.platform}-${process.arch} (source)`, commit: "source" };
}

export function versionLine(): string {
  const { version, target, commit } = versionInfo();
  return `nova ${version} (${target}, ${commit})`;
}
