/**
 * Packages fetched as tarballs from the npm registry (`npm pack`) and unpacked
 * into a cache folder, so cross-builds need nothing but the registry and run
 * offline once the cache is warm.
 */
import { existsSync, mkdirSync, renameSync, rmSync } from "node:fs";
import { join } from "node:path";

export const CACHE = join(import.meta.dir, "..", "node_modules", ".cache", "nova-build");

function folderOf(name: string, version: string): string {
  return join(CACHE, `${name.replace("@", "").replace("/", "-")}-${version}`);
}

function run(cmd: string[], cwd: string): string {
  const result = Bun.spawnSync(cmd, { cwd, stdout: "pipe", stderr: "pipe" });
  if (!result.success) throw new Error(`${cmd.join(" ")} failed (exit ${result.exitCode}): ${result.stderr.toString().trim()}`);
  return result.stdout.toString();
}

/** Unpacked package folders (the tarball's package/), fetching the missing ones in one npm call. */
export function fetchPackages(specs: { name: string; version: string }[]): string[] {
  mkdirSync(CACHE, { recursive: true });
  const missing = specs.filter((s) => !existsSync(join(folderOf(s.name, s.version), "package.json")));
  if (missing.length > 0) {
    console.error(`fetching ${missing.map((s) => `${s.name}@${s.version}`).join(", ")}`);
    const packed: { filename: string; name: string; version: string }[] = JSON.parse(
      run(["npm", "pack", "--json", "--pack-destination", CACHE, ...missing.map((s) => `${s.name}@${s.version}`)], CACHE),
    );
    for (const p of packed) {
      const dest = folderOf(p.name, p.version);
      const temp = `${dest}.${process.pid}.tmp`;
      rmSync(temp, { recursive: true, force: true });
      mkdirSync(temp, { recursive: true });
      run(["tar", "-xzf", join(CACHE, p.filename), "-C", temp], CACHE);
      rmSync(join(CACHE, p.filename));
      rmSync(dest, { recursive: true, force: true });
      renameSync(join(temp, "package"), dest);
      rmSync(temp, { recursive: true, force: true });
    }
  }
  return specs.map((s) => folderOf(s.name, s.version));
}
