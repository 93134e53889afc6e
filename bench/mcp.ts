/**
 * What the MCP client costs: executable size and start-up of `dist/nova`
 * against nova built from the commit before the MCP SDK was added (built
 * once into .bench-tmp, or $NOVA_BEFORE) and against today's committed nova
 * with the MCP client cut off, alternating the three, median of the runs, in wall time and in the child's CPU time (user + system, steadier
 * on a shared machine); and start-up with a server configured, which
 * connects in the background and must not delay `ready` or the first
 * `get_state`.
 */
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { env, lineReader, median, NOVA, ratio, ROOT, TMP } from "./lib.ts";

export async function benchMcp(runs = 25) {
  const before = process.env.NOVA_BEFORE ?? buildBefore();
  const without = buildWithout();
  const config = join(TMP, "mcp-config.yml");
  const everything = join(ROOT, "node_modules/@modelcontextprotocol/server-everything/dist/index.js");
  writeFileSync(config, JSON.stringify({ mcpServers: { everything: { command: process.execPath, args: [everything, "stdio"] } } }));
  // the same start with a config file but no server: reading a config (yaml) is not the MCP client's cost
  const plainConfig = join(TMP, "mcp-config-none.yml");
  writeFileSync(plainConfig, JSON.stringify({ mcpServers: {} }));
  const samples = { nova: [] as number[][], before: [] as number[][], without: [] as number[][], configured: [] as number[][], configFile: [] as number[][] };
  const plain = [
    ["nova", NOVA],
    ["before", before],
    ["without", without],
  ] as const;
  for (let i = 0; i < runs; i++) {
    // rotated, so no binary always starts right after another one's exit
    for (let k = 0; k < plain.length; k++) {
      const [name, binary] = plain[(i + k) % plain.length]!;
      samples[name].push(await startOnce([binary, "--no-session"]));
    }
  }
  // apart, with a pause after each: the server-everything a run started is still exiting when nova has, and would slow the next start
  for (let i = 0; i < runs; i++) {
    samples.configFile.push(await startOnce([NOVA, "--no-session", "--config", plainConfig]));
    await Bun.sleep(500);
    samples.configured.push(await startOnce([NOVA, "--no-session", "--config", config]));
    await Bun.sleep(500);
  }
  const at = (list: number[][], k: number) => median(list.map((s) => s[k]!));
  const size = (path: string) => statSync(path).size;
  const measures = ["spawn→ready ms", "spawn→get_state ms", "CPU ms to get_state and exit"] as const;
  const table: Record<string, string | number> = {
    runs,
    "executable bytes nova / before / without MCP": `${size(NOVA)} / ${size(before)} / ${size(without)}`,
    "executable size ratio to before / to without MCP": `${ratio(size(NOVA), size(before))} / ${ratio(size(NOVA), size(without))}`,
  };
  measures.forEach((name, k) => {
    const [n, b, w] = [at(samples.nova, k), at(samples.before, k), at(samples.without, k)];
    table[`${name} nova / before / without MCP`] = `${n.toFixed(1)} / ${b.toFixed(1)} / ${w.toFixed(1)}`;
    table[`${name} ratio to before / to without MCP`] = `${ratio(n, b)} / ${ratio(n, w)}`;
  });
  // nova against the cut-off build alone, in both orders: on a busy machine the order within a pair shows as much as the change
  for (const [label, first, second] of [
    ["nova first", NOVA, without],
    ["without MCP first", without, NOVA],
  ] as const) {
    const a: number[][] = [];
    const b: number[][] = [];
    for (let i = 0; i < runs * 2; i++) {
      a.push(await startOnce([first, "--no-session"]));
      b.push(await startOnce([second, "--no-session"]));
    }
    const [n, w] = first === NOVA ? [a, b] : [b, a];
    table[`pairs, ${label}: ready / CPU ratio nova to without MCP`] = `${ratio(at(n, 0), at(w, 0))} / ${ratio(at(n, 2), at(w, 2))}`;
  }
  table["spawn→ready ms, config file with a server / with none"] = `${at(samples.configured, 0).toFixed(1)} / ${at(samples.configFile, 0).toFixed(1)}`;
  table["spawn→ready ratio, with a server to none"] = ratio(at(samples.configured, 0), at(samples.configFile, 0));
  table["spawn→get_state ms, config file with a server / with none"] = `${at(samples.configured, 1).toFixed(1)} / ${at(samples.configFile, 1).toFixed(1)}`;
  table["spawn→get_state ratio, with a server to none"] = ratio(at(samples.configured, 1), at(samples.configFile, 1));
  return table;
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
  const cpu = proc.resourceUsage()?.cpuTime;
  return [ready, state, cpu ? Number(cpu.user + cpu.system) / 1000 : Number.NaN];
}

function git(...args: string[]): string {
  const r = Bun.spawnSync(["git", ...args], { cwd: ROOT, stderr: "inherit" });
  if (!r.success) throw new Error(`git ${args.join(" ")} failed`);
  return r.stdout.toString().trim();
}

/** nova as it was just before the commit that added the MCP SDK to package.json. */
function buildBefore(): string {
  const added = git("log", "--reverse", "--format=%H", "-S", '"@modelcontextprotocol/sdk"', "--", "package.json").split("\n")[0];
  if (!added) throw new Error("no commit adds @modelcontextprotocol/sdk to package.json; set NOVA_BEFORE to a nova built without it");
  const rev = git("rev-parse", `${added}^`);
  return buildAt(rev, `before-${rev.slice(0, 10)}`);
}

/**
 * The committed HEAD with the MCP manager cut off (`mcp/index.ts` never loads
 * `manager.ts`, so neither it, the connections nor the SDK are in the
 * executable): what start-up would cost today without the MCP client.
 */
function buildWithout(): string {
  const rev = git("rev-parse", "HEAD");
  return buildAt(rev, `without-mcp-${rev.slice(0, 10)}`, (dir) => {
    const file = join(dir, "src/mcp/index.ts");
    const text = readFileSync(file, "utf8");
    const cut = text.replace('import("./manager.ts")', 'Promise.reject(new Error("MCP cut off for the benchmark"))');
    if (cut === text) throw new Error('src/mcp/index.ts no longer has import("./manager.ts"); update buildWithout');
    writeFileSync(file, cut);
  });
}

function buildAt(rev: string, name: string, patch?: (dir: string) => void): string {
  const dir = join(TMP, name);
  const binary = join(dir, "dist/nova");
  if (existsSync(binary)) return binary;
  if (!existsSync(dir)) {
    mkdirSync(dir, { recursive: true });
    const unpack = Bun.spawnSync(["sh", "-c", `git archive ${rev} | tar -x -C "${dir}"`], { cwd: ROOT, stderr: "inherit" });
    if (!unpack.success) throw new Error(`could not unpack ${rev} into ${dir}`);
    patch?.(dir);
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
