/**
 * Prompt caching over a 30-turn session: `nova --mode json` sends 30 prompts
 * (each reads a file, then answers) to the scripted provider, which reports
 * cache reads the way OpenAI's prompt cache does (the part of a prompt that
 * begins like the last one under the same prompt_cache_key, in 128-token
 * blocks from 1024 tokens). The result is the cached share of all input
 * tokens, against the baseline of the same run: the share a prompt cache
 * could reach at best, if every token the previous request sent were cached.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { env, NOVA, ratio, TMP } from "./lib.ts";

const TURNS = 30;

const SCRIPT = `
- match: "^turn"
  reply:
    - tool: read
      arguments: { path: notes.md }
- reply:
    - text: "Read it: {{ result.read | count }} lines. Here is what I would change next, step by step, with the reasons for each."
`;

export async function benchCache(): Promise<Record<string, string>> {
  const dir = join(TMP, "cache");
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "notes.md"), "A line of project notes that the model reads at every turn.\n".repeat(40));
  writeFileSync(join(dir, "script.yml"), SCRIPT);
  const config = join(dir, "config.yml");
  writeFileSync(config, "defaultModel: bench/cache\nproviders:\n  bench:\n    api: scripted\n    script: script.yml\n    models: [{id: cache, contextWindow: 1000000}]\n");
  const prompts = Array.from({ length: TURNS }, (_, i) => `turn ${i + 1}: look at the notes again`);
  const proc = Bun.spawn([NOVA, "--mode", "json", "--config", config, "--no-session", ...prompts], { cwd: dir, env: env(), stdout: "pipe", stderr: "pipe" });
  const [stdout, code] = await Promise.all([new Response(proc.stdout).text(), proc.exited]);
  if (code !== 0) throw new Error(`nova --mode json exited ${code}: ${await new Response(proc.stderr).text()}`);
  const usages: { input: number; cacheRead: number }[] = [];
  for (const line of stdout.split("\n")) {
    if (!line.startsWith('{"type":"message_end"')) continue;
    const { message } = JSON.parse(line);
    if (message.role === "assistant") usages.push(message.usage);
  }
  let input = 0;
  let cacheRead = 0;
  let reachable = 0;
  let previous = 0;
  for (const usage of usages) {
    const total = usage.input + usage.cacheRead;
    input += total;
    cacheRead += usage.cacheRead;
    const prefix = Math.min(previous, total);
    reachable += prefix < 1024 ? 0 : Math.floor(prefix / 128) * 128;
    previous = total;
  }
  return {
    requests: String(usages.length),
    "input tokens": String(input),
    "cached share of input": (cacheRead / input).toFixed(3),
    "best reachable share (baseline)": (reachable / input).toFixed(3),
    "cached / reachable": ratio(cacheRead, reachable),
  };
}
