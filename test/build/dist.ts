/**
 * What `bun run build --all` and `bun build.ts --pack` leave in dist/, for the
 * tests that check it. Building every target takes a while, so the tests only
 * build when NOVA_BUILD_ALL=1 asks for it; CI (.ci/run) builds and packs once
 * before the tests instead, and the tests check whatever dist/ holds.
 */
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { NPM_OUT } from "../../build/pack.ts";
import { TARGETS, type Target } from "../../build/targets.ts";
import { ROOT } from "../support/nova.ts";

export const targetBinary = (target: Target) => join(ROOT, "dist", target.name, target.exe);

export function tarballs(): string[] {
  return existsSync(NPM_OUT)
    ? readdirSync(NPM_OUT)
        .filter((f) => /^nova-.*\.tgz$/.test(f))
        .map((f) => join(NPM_OUT, f))
    : [];
}

function complete(): boolean {
  return TARGETS.every((t) => existsSync(targetBinary(t))) && tarballs().length === TARGETS.length + 1;
}

if (process.env.NOVA_BUILD_ALL === "1" && !complete()) {
  const build = Bun.spawnSync(["bun", "build.ts", "--all", "--pack"], { cwd: ROOT, stdout: "inherit", stderr: "inherit" });
  if (!build.success) throw new Error(`bun build.ts --all --pack failed (exit ${build.exitCode})`);
}
