/**
 * Idle RSS after one short prompt (a one-sentence answer from the local
 * OpenAI-compatible provider server), against the compiled one-line Bun
 * program at rest: both read 600 ms after they went quiet (nova collects its
 * garbage once idle, wire/idle-collect.ts). Alternating, median of the runs;
 * also how much of nova's RSS is the executable's own pages and how much is
 * anonymous memory (heap, JIT code).
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fixtures } from "../test/support/fixtures/index.ts";
import { startProviderServer } from "../test/support/provider-server.ts";
import { compile, env, lineReader, median, NOVA, ratio, ROOT, TMP, procMemory } from "./lib.ts";

export async function benchIdle(runs = 5) {
  const server = await startProviderServer();
  mkdirSync(TMP, { recursive: true });
  const config = join(TMP, "idle-config.yml");
  writeFileSync(config, JSON.stringify({ defaultModel: "bench/m", providers: { bench: { api: "openai-chat", baseUrl: `${server.url}/v1`, models: [{ id: "m" }] } } }));
  const baseline = await compile(`${ROOT}/bench/baseline/echo.ts`, "baseline-echo");
  const nova: { rss: number; file: number; anon: number }[] = [];
  const base: number[] = [];
  for (let i = 0; i < runs; i++) {
    const b = Bun.spawn([baseline], { stdin: "pipe", stdout: "pipe", stderr: "ignore", env: env() });
    await lineReader(b.stdout)((l) => l.includes('"ready"'));
    await Bun.sleep(600);
    base.push(procMemory(b.pid).rssKb / 1024);
    b.kill();
    await b.exited;

    server.enqueue(fixtures.openaiChat.text("Hello! The folder holds a README and a src folder.", { fragment: 6 }));
    const n = Bun.spawn([NOVA, "--no-session", "--config", config], { stdin: "pipe", stdout: "pipe", stderr: "ignore", env: env() });
    const until = lineReader(n.stdout);
    await until((l) => l.includes('"ready"'));
    n.stdin.write('{"type":"prompt","message":"hi"}\n');
    n.stdin.flush();
    await until((l) => l.includes('"agent_settled"'));
    await Bun.sleep(600);
    const { rssKb, fileKb, anonKb } = procMemory(n.pid);
    nova.push({ rss: rssKb / 1024, file: fileKb / 1024, anon: anonKb / 1024 });
    n.stdin.end();
    await n.exited;
  }
  await server.close();
  const m = (key: "rss" | "file" | "anon") => median(nova.map((r) => r[key]));
  return {
    runs,
    "baseline idle RSS MiB": median(base).toFixed(1),
    "nova idle RSS after one short prompt MiB (÷ baseline)": `${m("rss").toFixed(1)} (${ratio(m("rss"), median(base))})`,
    "nova: the executable's pages / anonymous MiB": `${m("file").toFixed(1)} / ${m("anon").toFixed(1)}`,
  };
}
