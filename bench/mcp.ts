/**
 * What the MCP client costs: executable size and start-up of `dist/nova`
 * against nova built from the commit before the MCP SDK was added (built
 * once into .bench-tmp, or $NOVA_BEFORE), alternating the two, median of the
 * runs; and start-up with a server configured, which connects in the
 * background and must not delay `ready` or the first `get_state`.
 */
import { existsSync, mkdirSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { env, lineReader, median, NOVA, ratio, ROOT, TMP } from "./lib.ts";

export async function benchMcp(runs = 25) {
  const before = process.env.NOVA_BEFORE ?? buildBefore();
  const config = join(TMP, "mcp-config.yml");
  const everything = join(ROOT, "node_modules/@modelcontextprotocol/server-everything/dist/index.js");
  writeFileSync(config, JSON.stringify({ mcpServers: { everything: { command: process.execPath, args: [everything, "stdio"] } } }));
  const samples = { nova: [] as number[][], before: [] as number[][], configured: [] as number[][] };
  for (let i = 0; i < runs; i++) {
    samples.nova.push(await startOnce([NOVA, "--no-session"]));
    samples.before.push(await startOnce([before, "--no-session"]));
    samples.configured.push(await startOnce([NOVA, "--no-session", "--config", config]));
  }
  const at = (list: number[][], k: number) => median(list.map((s) => s[k]!));
  const size = (path: string) => statSync(path).size;
  return {
    runs,
    "executable bytes nova": size(NOVA),
    "executable bytes before": size(before),
    "executable size ratio": ratio(size(NOVA), size(before)),
    "spawn→ready nova ms": at(samples.nova, 0).toFixed(1),
    "spawn→ready before ms": at(samples.before, 0).toFixed(1),
    "spawn→ready ratio": ratio(at(samples.nova, 0), at(samples.before, 0)),
    "spawn→get_state nova ms": at(samples.nova, 1).toFixed(1),
    "spawn→get_state before ms": at(samples.before, 1).toFixed(1),
    "spawn→get_state ratio": ratio(at(samples.nova, 1), at(samples.before, 1)),
    "spawn→ready with a server configured ms": at(samples.configured, 0).toFixed(1),
    "spawn→get_state with a server configured ms": at(samples.configured, 1).toFixed(1),
    "with a server / without, get_state ratio": ratio(at(samples.configured, 1), at(samples.nova, 1)),
  };
}

async function startOnce(cmd: string[]): Promise<number[]> {
  const start = performance.now();
  const proc = Bun.spawn(cmd, { stdin: "pipe", stdout: "pipe", stderr: "ignore", env: env() });
  const until = lineReader(proc.stdout);
  await until((l) => l.includes('"ready"'));
  const ready = performance.now() - start;
  proc.stdin.write('{"id":"s","type":"get_state"}\n');
  proc.stdin.flush();
  await until((l) => l.includes('"response"'));
  const state = performance.now() - start;
  proc.stdin.end();
  await proc.exited;
  return [ready, state];
}

/** nova as it was just before the commit that added the MCP SDK to package.json. */
function buildBefore(): string {
  const git = (...args: string[]) => {
    const r = Bun.spawnSync(["git", ...args], { cwd: ROOT, stderr: "inherit" });
    if (!r.success) throw new Error(`git ${args.join(" ")} failed`);
    return r.stdout.toString().trim();
  };
  const added = git("log", "--reverse", "--format=%H", "-S", '"@modelcontextprotocol/sdk"', "--", "package.json").split("\n")[0];
  if (!added) throw new Error("no commit adds @modelcontextprotocol/sdk to package.json; set NOVA_BEFORE to a nova built without it");
  const rev = git("rev-parse", `${added}^`);
  const dir = join(TMP, `before-${rev.slice(0, 10)}`);
  const binary = join(dir, "dist/nova");
  if (existsSync(binary)) return binary;
  if (!existsSync(dir)) {
    mkdirSync(dir, { recursive: true });
    const unpack = Bun.spawnSync(["sh", "-c", `git archive ${rev} | tar -x -C "${dir}"`], { cwd: ROOT, stderr: "inherit" });
    if (!unpack.success) throw new Error(`could not unpack ${rev} into ${dir}`);
  }
  for (const cmd of [
    ["bun", "install", "--frozen-lockfile"],
    ["bun", "run", "build"],
  ]) {
    const r = Bun.spawnSync(cmd, { cwd: dir, stdout: "ignore", stderr: "inherit" });
    if (!r.success) throw new Error(`${cmd.join(" ")} failed in ${dir}`);
  }
  return binary;
}
