/**
 * Builds the nova executable: `bun run build` → dist/nova for this machine.
 * Version, target and commit are baked in so `nova --version` can tell them.
 */
import { mkdirSync } from "node:fs";
import pkg from "./package.json" with { type: "json" };

const hostTarget = `bun-${process.platform}-${process.arch}`;

function commit(): string {
  const result = Bun.spawnSync(["git", "rev-parse", "--short=12", "HEAD"], { stderr: "ignore" });
  return result.success ? result.stdout.toString().trim() : "unknown";
}

export async function buildExecutable(options: { target?: string; outfile?: string } = {}): Promise<string> {
  const target = options.target ?? hostTarget;
  const outfile = options.outfile ?? "dist/nova";
  mkdirSync("dist", { recursive: true });
  const info = { version: pkg.version, target: target.replace(/^bun-/, ""), commit: commit() };
  const result = await Bun.build({
    entrypoints: ["src/main.ts"],
    minify: true,
    sourcemap: "none",
    define: { NOVA_BUILD: JSON.stringify(info) },
    compile: {
      target: target as Bun.Build.Target,
      outfile,
      autoloadDotenv: false,
      autoloadBunfig: false,
    },
  });
  if (!result.success) {
    for (const log of result.logs) console.error(log);
    throw new Error(`build failed for ${target}`);
  }
  return outfile;
}

if (import.meta.main) {
  const out = await buildExecutable();
  console.error(`built ${out}`);
}
