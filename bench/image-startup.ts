/**
 * What embedding sharp costs at startup: spawn → ready of the compiled nova
 * with sharp and libvips inside against the same build with the image tools
 * left out, alternating the two, median of the runs. Loading stays lazy, so
 * the only difference should be the larger executable.
 */
import { statSync } from "node:fs";
import { join } from "node:path";
import { buildExecutable, installedSharp } from "../build.ts";
import { hostTarget } from "../build/targets.ts";
import { env, lineReader, median, ratio, TMP } from "./lib.ts";

async function spawnToReady(binary: string): Promise<number> {
  const start = performance.now();
  const proc = Bun.spawn([binary, "--no-session"], { stdin: "pipe", stdout: "pipe", stderr: "ignore", env: env() });
  await lineReader(proc.stdout)((l) => l.includes('"ready"'));
  const elapsed = performance.now() - start;
  proc.stdin.end();
  await proc.exited;
  return elapsed;
}

export async function benchImageStartup(runs = 25) {
  const target = hostTarget();
  const withImages = await buildExecutable({ target, outfile: join(TMP, "nova-images"), sharp: installedSharp(target) });
  const without = await buildExecutable({ target, outfile: join(TMP, "nova-no-images"), sharp: { images: false } });
  const samples = { with: [] as number[], without: [] as number[] };
  await spawnToReady(withImages);
  await spawnToReady(without);
  for (let i = 0; i < runs; i++) {
    samples.with.push(await spawnToReady(withImages));
    samples.without.push(await spawnToReady(without));
  }
  const mb = (path: string) => (statSync(path).size / 1024 / 1024).toFixed(1);
  return {
    runs,
    "spawn→ready with sharp ms": median(samples.with).toFixed(1),
    "spawn→ready without image tools ms": median(samples.without).toFixed(1),
    "spawn→ready ratio (limit 1.30)": ratio(median(samples.with), median(samples.without)),
    "size with sharp MB": mb(withImages),
    "size without image tools MB": mb(without),
  };
}
