/**
 * Framing throughput: 256 MiB of mixed-size records fed through a pipe into
 * the compiled nova (each record a valid command that gets a small answer),
 * against a compiled Bun program that only counts LF bytes of the same input.
 */
import { compile, env, NOVA, ratio, ROOT } from "./lib.ts";

const TOTAL = 256 * 1024 * 1024;

function makeInput(): { bytes: Uint8Array; records: number } {
  const sizes = [64, 300, 2_000, 40_000, 700_000];
  const parts: string[] = [];
  let total = 0;
  let records = 0;
  for (let i = 0; total < TOTAL; i++) {
    const size = sizes[i % sizes.length];
    const head = `{"id":"${i}","type":"get_last_assistant_text","pad":"`;
    const line = head + "x".repeat(Math.max(0, size! - head.length - 3)) + '"}\n';
    parts.push(line);
    total += line.length;
    records++;
  }
  return { bytes: new TextEncoder().encode(parts.join("")), records };
}

async function pump(cmd: string[], input: Uint8Array): Promise<{ ms: number; out: number }> {
  const start = performance.now();
  const proc = Bun.spawn(cmd, { stdin: "pipe", stdout: "pipe", stderr: "ignore", env: env() });
  const reading = (async () => {
    let out = 0;
    for await (const chunk of proc.stdout) out += chunk.length;
    return out;
  })();
  const step = 1 << 20;
  for (let i = 0; i < input.length; i += step) {
    proc.stdin.write(input.subarray(i, i + step));
    await proc.stdin.flush();
  }
  proc.stdin.end();
  const out = await reading;
  await proc.exited;
  return { ms: performance.now() - start, out };
}

export async function benchFraming() {
  const baseline = await compile(`${ROOT}/bench/baseline/count-lines.ts`, "baseline-count");
  const { bytes, records } = makeInput();
  const mb = bytes.length / (1024 * 1024);
  const nova = await pump([NOVA, "--no-session"], bytes);
  const base = await pump([baseline], bytes);
  const novaRate = mb / (nova.ms / 1000);
  const baseRate = mb / (base.ms / 1000);
  return {
    "input MiB": mb.toFixed(0),
    records,
    "nova MiB/s": novaRate.toFixed(0),
    "baseline (read + count LF) MiB/s": baseRate.toFixed(0),
    "throughput ratio nova/baseline": ratio(novaRate, baseRate),
  };
}
