/**
 * Spawn → ready and spawn → first get_state response of the compiled nova,
 * against a minimal compiled Bun program that prints one line (and answers
 * one line), alternating the two, median of the runs.
 */
import { compile, env, lineReader, median, NOVA, ratio, ROOT } from "./lib.ts";

export async function benchStartup(runs = 25) {
  const baseline = await compile(`${ROOT}/bench/baseline/echo.ts`, "baseline-echo");
  const samples = { novaReady: [] as number[], novaState: [] as number[], baseReady: [] as number[], baseState: [] as number[] };
  const once = async (cmd: string[], ready: number[], state: number[]) => {
    const start = performance.now();
    const proc = Bun.spawn(cmd, { stdin: "pipe", stdout: "pipe", stderr: "ignore", env: env() });
    const until = lineReader(proc.stdout);
    await until((l) => l.includes('"ready"'));
    ready.push(performance.now() - start);
    proc.stdin.write('{"id":"s","type":"get_state"}\n');
    proc.stdin.flush();
    await until((l) => l.includes('"response"'));
    state.push(performance.now() - start);
    proc.stdin.end();
    await proc.exited;
  };
  for (let i = 0; i < runs; i++) {
    await once([NOVA, "--no-session"], samples.novaReady, samples.novaState);
    await once([baseline], samples.baseReady, samples.baseState);
  }
  const m = Object.fromEntries(Object.entries(samples).map(([k, v]) => [k, median(v)])) as Record<keyof typeof samples, number>;
  return {
    runs,
    "spawn→ready nova ms": m.novaReady.toFixed(1),
    "spawn→ready baseline ms": m.baseReady.toFixed(1),
    "spawn→ready ratio": ratio(m.novaReady, m.baseReady),
    "spawn→get_state nova ms": m.novaState.toFixed(1),
    "spawn→get_state baseline ms": m.baseState.toFixed(1),
    "spawn→get_state ratio": ratio(m.novaState, m.baseState),
  };
}
