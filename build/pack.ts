/**
 * npm tarballs, esbuild/Biome style: `nova-agent` is a small launcher whose
 * optionalDependencies name one `@nova-agent/<target>` package per platform;
 * each of those carries only its executable and declares os/cpu/libc, so npm
 * installs just the one that fits. Packed (not published) into dist/npm/ from
 * the skeletons in npm/ and the executables in dist/.
 */
import { chmodSync, copyFileSync, cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import pkg from "../package.json" with { type: "json" };
import { TARGETS, type Target, hostTarget } from "./targets.ts";
import { stageClient } from "./client.ts";

const ROOT = join(import.meta.dir, "..");
const SKELETONS = join(ROOT, "npm");
export const NPM_OUT = join(ROOT, "dist", "npm");

export const platformPackage = (target: Target) => `@nova-agent/${target.name}`;

/** The executable for a target: dist/<target>/ from --all, else dist/nova for this machine. */
function executableFor(target: Target): string | undefined {
  const built = join(ROOT, "dist", target.name, target.exe);
  if (existsSync(built)) return built;
  return target === hostTarget() && existsSync(join(ROOT, "dist", "nova")) ? join(ROOT, "dist", "nova") : undefined;
}

function writeJson(path: string, value: unknown): void {
  writeFileSync(path, JSON.stringify(value, null, 2) + "\n");
}

function stagePlatform(stage: string, target: Target, executable: string): string {
  const dir = join(stage, target.name);
  mkdirSync(join(dir, "bin"), { recursive: true });
  copyFileSync(executable, join(dir, "bin", target.exe));
  chmodSync(join(dir, "bin", target.exe), 0o755);
  const base = JSON.parse(readFileSync(join(SKELETONS, "platform", "package.json"), "utf8"));
  writeJson(join(dir, "package.json"), {
    name: platformPackage(target),
    version: pkg.version,
    ...base,
    os: [target.os],
    cpu: [target.cpu],
    ...(target.libc ? { libc: [target.libc] } : {}),
  });
  writeFileSync(join(dir, "README.md"), readFileSync(join(SKELETONS, "platform", "README.md"), "utf8").replaceAll("{{target}}", target.name));
  copyFileSync(join(ROOT, "LICENSE"), join(dir, "LICENSE"));
  return dir;
}

async function stageMain(stage: string): Promise<string> {
  const dir = join(stage, "nova-agent");
  cpSync(join(SKELETONS, "nova-agent"), dir, { recursive: true });
  const manifest = JSON.parse(readFileSync(join(dir, "package.json"), "utf8"));
  manifest.version = pkg.version;
  manifest.optionalDependencies = Object.fromEntries(TARGETS.map((t) => [platformPackage(t), pkg.version]));
  writeJson(join(dir, "package.json"), manifest);
  copyFileSync(join(ROOT, "LICENSE"), join(dir, "LICENSE"));
  await stageClient(dir);
  return dir;
}

/** Packs the launcher and every platform whose executable dist/ holds; returns the tarball paths. */
export async function packAll(): Promise<string[]> {
  const stage = join(NPM_OUT, "stage");
  rmSync(NPM_OUT, { recursive: true, force: true });
  mkdirSync(stage, { recursive: true });
  const dirs = [await stageMain(stage)];
  for (const target of TARGETS) {
    const executable = executableFor(target);
    if (executable) dirs.push(stagePlatform(stage, target, executable));
  }
  const result = Bun.spawnSync(["npm", "pack", "--json", "--pack-destination", NPM_OUT, ...dirs], { cwd: NPM_OUT, stdout: "pipe", stderr: "pipe" });
  if (!result.success) throw new Error(`npm pack failed (exit ${result.exitCode}): ${result.stderr.toString().trim()}`);
  rmSync(stage, { recursive: true, force: true });
  const packed: { filename: string }[] = JSON.parse(result.stdout.toString());
  for (const p of packed) console.error(`packed dist/npm/${p.filename}`);
  return packed.map((p) => join(NPM_OUT, p.filename));
}
