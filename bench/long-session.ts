/**
 * Flat cost as the work grows: one nova process runs a 500-turn scripted
 * session (each prompt: a `read` tool call, its result, an answer; automatic
 * compaction on, with a context window small enough that it runs every few
 * turns), saved to a session file. Per-turn time (prompt → agent_end) and RSS
 * around turn 50 against around turn 500; then `get_state` on the 500-turn
 * session. The provider answers by what it is asked: a request without tools
 * is a compaction summary, one ending in a tool result gets the answer, any
 * other the tool call; usage reports the prompt's size, so compaction runs at
 * its threshold as it would for a real model. RSS at turns 50 and 500 is read
 * after a moment of idleness, as a host would see it between prompts.
 */
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fixtures } from "../test/support/fixtures/index.ts";
import { env, lineReader, median, NOVA, ratio, TMP, rssKb } from "./lib.ts";

function scriptedServer() {
  let requests = 0;
  let compactions = 0;
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(req) {
      const body = (await req.json()) as { messages: { role: string }[]; tools?: unknown[] };
      requests++;
      const input = Math.round(JSON.stringify(body.messages).length / 4);
      const usage = { input, output: 20 };
      const last = body.messages.at(-1);
      const scripted =
        !body.tools || body.tools.length === 0
          ? (compactions++, fixtures.openaiChat.text("Summary: the user asked to read notes.txt many times; it was read each time.", { usage }))
          : last?.role === "tool"
            ? fixtures.openaiChat.text("Read it: the notes list twenty numbered lines about the project.", { usage })
            : fixtures.openaiChat.toolCalls([{ id: `c${requests}`, name: "read", args: { path: "notes.txt" } }], { usage });
      return new Response(scripted.chunks.join(""), { headers: { "content-type": "text/event-stream" } });
    },
  });
  return { url: `http://127.0.0.1:${server.port}`, stats: () => ({ requests, compactions }), stop: () => server.stop(true) };
}

export async function benchLongSession(turns = 500) {
  const dir = join(TMP, "long-session");
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(join(dir, "cwd"), { recursive: true });
  writeFileSync(join(dir, "cwd", "notes.txt"), Array.from({ length: 20 }, (_, i) => `${i + 1}. a line of the project's notes, long enough to count`).join("\n"));
  const server = scriptedServer();
  const config = join(dir, "config.yml");
  writeFileSync(
    config,
    JSON.stringify({
      defaultModel: "b/m",
      providers: { b: { api: "openai-chat", baseUrl: `${server.url}/v1`, models: [{ id: "m", contextWindow: 16000 }] } },
      compaction: { enabled: true, reserveTokens: 4000, keepRecentTokens: 3000 },
    }),
  );
  const home = join(dir, "home");
  mkdirSync(home, { recursive: true });
  const proc = Bun.spawn([NOVA, "--config", config], { cwd: join(dir, "cwd"), stdin: "pipe", stdout: "pipe", stderr: "ignore", env: { ...env(), HOME: home, NOVA_HOME: home } });
  const until = lineReader(proc.stdout);
  await until((l) => l.includes('"ready"'));
  const ms: number[] = [];
  const rss: number[] = [];
  for (let i = 1; i <= turns; i++) {
    const start = performance.now();
    proc.stdin.write(`${JSON.stringify({ id: `p${i}`, type: "prompt", message: `turn ${i}: read notes.txt and tell me what it says` })}\n`);
    proc.stdin.flush();
    await until((l) => l.includes('"agent_settled"'));
    ms.push(performance.now() - start);
    // at the two measured turns, idle for a moment so the collection after settling has run (wire/idle-collect.ts)
    if (i === 50 || i === turns) await Bun.sleep(600);
    rss.push(rssKb(proc.pid));
  }
  const stateMs: number[] = [];
  for (let i = 0; i < 21; i++) {
    const start = performance.now();
    proc.stdin.write(`{"id":"s${i}","type":"get_state"}\n`);
    proc.stdin.flush();
    await until((l) => l.includes(`"id":"s${i}"`));
    stateMs.push(performance.now() - start);
  }
  proc.stdin.end();
  await proc.exited;
  server.stop();
  const around = (values: number[], turn: number) => median(values.slice(turn - 11, turn + 10));
  const t50 = around(ms, 50);
  const t500 = median(ms.slice(-21));
  const r50 = rss[49]!;
  const r500 = rss.at(-1)!;
  const { requests, compactions } = server.stats();
  return {
    turns,
    "provider requests / compactions": `${requests} / ${compactions}`,
    "per-turn ms around turn 50 / last 21 turns (median)": `${t50.toFixed(1)} / ${t500.toFixed(1)}`,
    "per-turn time growth 50 → 500 (limit 1.10)": ratio(t500, t50),
    "RSS MiB at turn 50 / turn 500": `${(r50 / 1024).toFixed(1)} / ${(r500 / 1024).toFixed(1)}`,
    "RSS growth 50 → 500 (limit 1.10)": ratio(r500, r50),
    "get_state on the 500-turn session ms (median of 21, limit 2)": median(stateMs).toFixed(2),
  };
}
