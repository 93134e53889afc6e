/**
 * The npm launcher's cost: spawn → first get_state response through
 * `node node_modules/.bin/nova` (nova-agent's bin/nova.js finding the
 * platform package's executable) against the same executable spawned
 * directly, alternating, median of the runs. The bound: ~50 ms over.
 */
import { chmodSync, copyFileSync, mkdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { env, lineReader, median, NOVA, ratio, ROOT, TMP } from "./lib.ts";
import { hostTarget } from "../build/targets.ts";

/** A node_modules laid out as npm leaves it: the launcher, and this platform's package with dist/nova in it. */
function install(): string {
  const dir = join(TMP, "launcher");
  rmSync(dir, { recursive: true, force: true });
  const launcher = join(dir, "node_modules/nova-agent/bin");
  const platform = join(dir, "node_modules/@nova-agent", hostTarget().name);
  mkdirSync(launcher, { recursive: true });
  mkdirSync(join(platform, "bin"), { recursive: true });
  copyFileSync(join(ROOT, "npm/nova-agent/bin/nova.js"), join(launcher, "nova.js"));
  writeFileSync(join(dir, "node_modules/nova-agent/package.json"), JSON.stringify({ name: "nova-agent", bin: { nova: "bin/nova.js" } }));
  writeFileSync(join(platform, "package.json"), JSON.stringify({ name: `@nova-agent/${hostTarget().name}` }));
  symlinkSync(NOVA, join(platform, "bin/nova"));
  chmodSync(join(launcher, "nova.js"), 0o755);
  return join(launcher, "nova.js");
}

export async function benchLauncher(runs = 25) {
  const launcher = install();
  const samples = { launcher: [] as number[], binary: [] as number[], node: [] as number[] };
  const once = async (cmd: string[], into: number[]) => {
    const start = performance.now();
    const proc = Bun.spawn(cmd, { stdin: "pipe", stdout: "pipe", stderr: "ignore", env: env() });
    const until = lineReader(proc.stdout);
    await until((l) => l.includes('"ready"'));
    proc.stdin.write('{"id":"s","type":"get_state"}\n');
    proc.stdin.flush();
    await until((l) => l.includes('"response"'));
    into.push(performance.now() - start);
    proc.stdin.end();
    await proc.exited;
  };
  for (let i = 0; i < runs; i++) {
    await once(["node", launcher, "--no-session"], samples.launcher);
    await once([NOVA, "--no-session"], samples.binary);
    // the floor: node starting and exiting with nothing to do
    const start = performance.now();
    await Bun.spawn(["node", "-e", ""], { stdout: "ignore", stderr: "ignore" }).exited;
    samples.node.push(performance.now() - start);
  }
  const launched = median(samples.launcher);
  const direct = median(samples.binary);
  return {
    runs,
    "spawn→get_state via launcher ms": launched.toFixed(1),
    "spawn→get_state binary ms": direct.toFixed(1),
    "launcher overhead ms": (launched - direct).toFixed(1),
    "node -e '' alone ms": median(samples.node).toFixed(1),
    ratio: ratio(launched, direct),
  };
}
