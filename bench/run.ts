/**
 * `bun run bench [name…]`: builds nova, runs the named benchmarks (all by
 * default) and prints each result as ratios against its baseline of the same run.
 */
import { existsSync } from "node:fs";
import { NOVA, ROOT } from "./lib.ts";
import { benchStartup } from "./startup.ts";
import { benchFraming } from "./framing.ts";
import { benchRelay } from "./relay.ts";
import { benchGrep } from "./grep.ts";
import { benchSessionLoad } from "./session-load.ts";

const benches: Record<string, () => Promise<Record<string, unknown>>> = {
  startup: () => benchStartup(),
  framing: () => benchFraming(),
  relay: () => benchRelay(),
  grep: () => benchGrep(),
  "session-load": () => benchSessionLoad(),
  mcp: async () => (await import("./mcp.ts")).benchMcp(),
  "image-startup": async () => (await import("./image-startup.ts")).benchImageStartup(),
  checkpoints: async () => (await import("./checkpoints.ts")).benchCheckpoints(),
  sandbox: async () => (await import("./sandbox.ts")).benchSandbox(),
  "long-session": async () => (await import("./long-session.ts")).benchLongSession(),
  cache: async () => (await import("./cache.ts")).benchCache(),
  launcher: async () => (await import("./launcher.ts")).benchLauncher(),
  idle: async () => (await import("./idle.ts")).benchIdle(),
};

const chosen = process.argv.slice(2);
const names = chosen.length > 0 ? chosen : Object.keys(benches);
for (const name of names) if (!benches[name]) throw new Error(`unknown bench "${name}"; known: ${Object.keys(benches).join(", ")}`);

const build = Bun.spawnSync(["bun", "run", "build"], { cwd: ROOT, stdout: "inherit", stderr: "inherit" });
if (!build.success || !existsSync(NOVA)) throw new Error("bun run build failed");

console.log(`# nova bench ${new Date().toISOString().slice(0, 10)} (bun ${Bun.version}, ${process.platform}-${process.arch})`);
for (const name of names) {
  const result = await benches[name]!();
  console.log(`\n## ${name}`);
  for (const [key, value] of Object.entries(result)) console.log(`- ${key}: ${value}`);
}
