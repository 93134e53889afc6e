/**
 * Spawn → ready and spawn → first get_state response of the compiled nova,
 * without a config file and with a typical one (a provider, a default model,
 * a few settings), against a minimal compiled Bun program that prints one line
 * (and answers one line), alternating, median of the runs; also each
 * process's CPU time (user + system), steadier than wall time under load. With
 * NOVA_BEFORE=<binary> an earlier build runs in the same rotation.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { compile, env, lineReader, median, NOVA, ratio, ROOT, TMP } from "./lib.ts";

const CONFIG = `# a typical user config
defaultModel: local/qwen
providers:
  local:
    api: openai-chat
    baseUrl: http://127.0.0.1:9/v1
    models:
      - id: qwen
        contextWindow: 32768
compaction:
  reserveTokens: 8000
permissions:
  bash:
    allow: ["git status", "ls *"]
`;

export async function benchStartup(runs = 25) {
  const baseline = await compile(`${ROOT}/bench/baseline/echo.ts`, "baseline-echo");
  mkdirSync(TMP, { recursive: true });
  const config = join(TMP, "startup-config.yml");
  writeFileSync(config, CONFIG);
  const before = process.env.NOVA_BEFORE;
  const subjects: Record<string, string[]> = {
    nova: [NOVA, "--no-session"],
    "nova with config": [NOVA, "--no-session", "--config", config],
    baseline: [baseline],
    ...(before ? { before: [before, "--no-session"], "before with config": [before, "--no-session", "--config", config] } : {}),
  };
  const ready: Record<string, number[]> = {};
  const state: Record<string, number[]> = {};
  /** user + system CPU of the whole process (spawn → exit after one get_state): steadier than wall time on a loaded machine */
  const cpu: Record<string, number[]> = {};
  const once = async (name: string, cmd: string[]) => {
    const start = performance.now();
    const proc = Bun.spawn(cmd, { stdin: "pipe", stdout: "pipe", stderr: "ignore", env: env() });
    const until = lineReader(proc.stdout);
    await until((l) => l.includes('"ready"'));
    (ready[name] ??= []).push(performance.now() - start);
    proc.stdin.write('{"id":"s","type":"get_state"}\n');
    proc.stdin.flush();
    await until((l) => l.includes('"response"'));
    (state[name] ??= []).push(performance.now() - start);
    proc.stdin.end();
    await proc.exited;
    const usage = proc.resourceUsage();
    if (usage) (cpu[name] ??= []).push(Number(usage.cpuTime.user + usage.cpuTime.system) / 1000);
  };
  for (const [name, cmd] of Object.entries(subjects)) await once(name, cmd); // warm the page cache
  for (const key of Object.keys(subjects)) {
    ready[key] = [];
    state[key] = [];
    cpu[key] = [];
  }
  for (let i = 0; i < runs; i++) for (const [name, cmd] of Object.entries(subjects)) await once(name, cmd);
  const result: Record<string, string | number> = { runs };
  const base = { ready: median(ready.baseline!), state: median(state.baseline!), cpu: median(cpu.baseline!) };
  for (const name of Object.keys(subjects)) {
    const r = median(ready[name]!);
    const s = median(state[name]!);
    result[`${name}: spawn→ready ms (÷ baseline)`] = `${r.toFixed(1)} (${ratio(r, base.ready)})`;
    result[`${name}: spawn→get_state ms (÷ baseline)`] = `${s.toFixed(1)} (${ratio(s, base.state)})`;
    const c = median(cpu[name]!);
    result[`${name}: CPU ms, spawn → exit (÷ baseline)`] = `${c.toFixed(1)} (${ratio(c, base.cpu)})`;
  }
  return result;
}
