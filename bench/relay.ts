/**
 * Event relay cost: a scripted answer of N text deltas streamed through nova
 * to stdout, from prompt to agent_end: wall time, CPU time and bytes written,
 * against a compiled minimal relay of the same stream (bench/baseline/relay.ts).
 * Also nova with --message-snapshots (Pi's cost model) and nova's idle RSS
 * after the prompt. Medians of alternating runs; NOVA_BEFORE=<binary> adds an
 * earlier build to the rotation.
 */
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { compile, env, median, NOVA, ratio, ROOT, TMP, rssKb } from "./lib.ts";
import { startProviderServer } from "../test/support/provider-server.ts";
import { fixtures } from "../test/support/fixtures/index.ts";

const TICK_MS = 10; // USER_HZ = 100 on Linux

/** CPU time of every thread of the process, from the scheduler's nanosecond counts (utime/stime count 10 ms ticks). */
function cpuMs(pid: number): number {
  try {
    let ns = 0;
    for (const task of readdirSync(`/proc/${pid}/task`)) ns += Number(readFileSync(`/proc/${pid}/task/${task}/schedstat`, "utf8").split(" ")[0]);
    return ns / 1e6;
  } catch {
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
    return (Number(fields[11]) + Number(fields[12])) * TICK_MS;
  }
}

interface Run {
  ms: number;
  cpuMs: number;
  bytes: number;
  idleRssKb?: number;
}

async function measure(cmd: string[], input: string | undefined, done: string): Promise<Run> {
  const proc = Bun.spawn(cmd, { stdin: "pipe", stdout: "pipe", stderr: "ignore", env: env() });
  const reader = proc.stdout.getReader();
  const decoder = new TextDecoder();
  let bytes = 0;
  let text = "";
  /** resolves at `needle`, looking at what already arrived before reading more */
  const until = async (needle: string) => {
    for (;;) {
      const at = text.indexOf(needle);
      if (at >= 0) {
        text = text.slice(at + needle.length);
        return;
      }
      text = text.slice(-needle.length);
      const { value, done: end } = await reader.read();
      if (end) throw new Error(`stream ended before ${needle}`);
      bytes += value.length;
      text += decoder.decode(value, { stream: true });
    }
  };
  if (input !== undefined) await until('"ready"');
  bytes = 0;
  const cpu0 = cpuMs(proc.pid);
  const start = performance.now();
  if (input !== undefined) {
    proc.stdin.write(input);
    proc.stdin.flush();
  }
  await until(done);
  const ms = performance.now() - start;
  // the baseline relay exits at its end: its whole life's CPU, exact, from the kernel's accounting
  const exitedCpu = async () => {
    await proc.exited;
    const usage = proc.resourceUsage();
    return usage ? Number(usage.cpuTime.user + usage.cpuTime.system) / 1000 : cpuMs(proc.pid) - cpu0;
  };
  const run: Run = { ms, cpuMs: input === undefined ? await exitedCpu() : cpuMs(proc.pid) - cpu0, bytes };
  if (input !== undefined) {
    await until('"agent_settled"');
    // idle: a moment after the prompt settled (nova collects its garbage once idle, wire/idle-collect.ts)
    await Bun.sleep(600);
    run.idleRssKb = rssKb(proc.pid);
  }
  proc.stdin.end();
  proc.kill();
  await proc.exited;
  return run;
}

export async function benchRelay(deltas = 20000, runs = 5) {
  const server = await startProviderServer();
  mkdirSync(TMP, { recursive: true });
  const config = join(TMP, "relay-config.yml");
  writeFileSync(
    config,
    JSON.stringify({
      defaultModel: "bench/m",
      providers: { bench: { api: "openai-chat", baseUrl: `${server.url}/v1`, models: [{ id: "m" }] } },
    }),
  );
  const answer = "abcd".repeat(deltas);
  // 16 KiB chunks: the scripted server pauses between chunks, which would dominate the timing
  const script = () => fixtures.openaiChat.text(answer, { fragment: 4, chunkSize: 16384 });
  const baseline = await compile(`${ROOT}/bench/baseline/relay.ts`, "baseline-relay");
  const prompt = JSON.stringify({ id: "p", type: "prompt", message: "go" }) + "\n";
  const novaArgs = [NOVA, "--no-session", "--config", config];

  const before = process.env.NOVA_BEFORE;
  const samples = { base: [] as Run[], nova: [] as Run[], before: [] as Run[] };
  // alternating: the baseline relay, nova, and with NOVA_BEFORE an earlier build
  for (let i = 0; i < runs; i++) {
    server.enqueue(script());
    samples.base.push(await measure([baseline, `${server.url}/v1/chat/completions`], undefined, '"agent_end"'));
    server.enqueue(script());
    samples.nova.push(await measure(novaArgs, prompt, '"agent_end"'));
    if (before) {
      server.enqueue(script());
      samples.before.push(await measure([before, ...novaArgs.slice(1)], prompt, '"agent_end"'));
    }
  }
  const mid = (list: Run[]): Run => ({
    ms: median(list.map((r) => r.ms)),
    cpuMs: median(list.map((r) => r.cpuMs)),
    bytes: median(list.map((r) => r.bytes)),
    idleRssKb: median(list.map((r) => r.idleRssKb ?? 0)),
  });
  const base = mid(samples.base);
  const nova = mid(samples.nova);
  server.enqueue(script());
  const snapshots = await measure([...novaArgs, "--message-snapshots"], prompt, '"agent_end"');
  await server.close();
  return {
    deltas,
    "nova ms / CPU ms / bytes": `${nova.ms.toFixed(0)} / ${nova.cpuMs.toFixed(0)} / ${nova.bytes}`,
    "baseline relay ms / CPU ms / bytes": `${base.ms.toFixed(0)} / ${base.cpuMs.toFixed(0)} / ${base.bytes}`,
    "time ratio nova/baseline": ratio(nova.ms, base.ms),
    "CPU ratio nova/baseline": ratio(Math.max(nova.cpuMs, TICK_MS), Math.max(base.cpuMs, TICK_MS)),
    "bytes per delta nova (default)": (nova.bytes / deltas).toFixed(1),
    "bytes per delta nova --message-snapshots": (snapshots.bytes / deltas).toFixed(1),
    "nova idle RSS after the prompt MiB": ((nova.idleRssKb ?? 0) / 1024).toFixed(1),
    ...(before
      ? (() => {
          const b = mid(samples.before);
          return {
            "before ms / CPU ms / bytes": `${b.ms.toFixed(0)} / ${b.cpuMs.toFixed(0)} / ${b.bytes}`,
            "before CPU ratio / baseline": ratio(Math.max(b.cpuMs, TICK_MS), Math.max(base.cpuMs, TICK_MS)),
            "before idle RSS after the prompt MiB": ((b.idleRssKb ?? 0) / 1024).toFixed(1),
          };
        })()
      : {}),
  };
}
