/**
 * What `bench:peers` measures, one function per row group. Every function
 * takes the agents in turn (the order rotates per round), each in a fresh
 * process, against the same scripted provider.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { startProviderServer, type ProviderServer } from "../../test/support/provider-server.ts";
import { fixtures } from "../../test/support/fixtures/index.ts";
import { cutAfter } from "../../test/support/scenario.ts";
import { median } from "../lib.ts";
import type { Agent } from "./agents.ts";
import { RpcProcess } from "./rpc.ts";

const chat = fixtures.openaiChat;
/** one network write per response: the provider adds one event-loop tick, not a delay per delta */
const ONE_CHUNK = 1 << 30;

export type Row = Record<string, number>;

/** What went wrong where a value is missing (NaN): "agent, measure: error". */
export const failures: string[] = [];

type Measure = (rpc: RpcProcess, server: ProviderServer, agent: Agent) => Promise<number>;

/**
 * Runs `measure` `rounds` times for every agent, rotating who goes first,
 * each time in a fresh process against a fresh scripted provider (so a run
 * that fails halfway leaves no scripted answer behind for the next). The
 * median per agent; NaN, and a line in `failures`, where a run failed.
 */
async function alternate(label: string, agents: Agent[], rounds: number, measure: Measure, launch = started): Promise<Row> {
  const samples: Record<string, number[]> = Object.fromEntries(agents.map((a) => [a.name, []]));
  for (let round = 0; round < rounds; round++) {
    for (let i = 0; i < agents.length; i++) {
      const agent = agents[(round + i) % agents.length]!;
      const server = await startProviderServer();
      let rpc: RpcProcess | undefined;
      try {
        rpc = await launch(agent, server);
        samples[agent.name]!.push(await measure(rpc, server, agent));
      } catch (error) {
        failures.push(`${agent!.name}, ${label}: ${summary(error as Error)}`);
        samples[agent!.name]!.push(Number.NaN);
      } finally {
        await rpc?.stop();
        await server.close();
      }
    }
  }
  return Object.fromEntries(Object.entries(samples).map(([name, values]) => [name, values.some(Number.isNaN) ? Number.NaN : median(values)]));
}

/** The error's first line, and the agent's own error line from its stderr when there is one. */
function summary(error: Error): string {
  const [line, ...rest] = error.message.split("\n");
  const first = line!.replace(/^.*? --no-session: /, "");
  const own = rest.find((line) => /^\w*Error\b|error:/i.test(line.trim()));
  return own ? `${first} (${own.trim()})` : first;
}

async function started(agent: Agent, server: ProviderServer): Promise<RpcProcess> {
  const rpc = new RpcProcess(agent.command(server.url));
  await rpc.request({ type: "get_state" });
  return rpc;
}

/** Spawned, not yet asked anything: the start-up measure times its own first request. */
async function spawned(agent: Agent, server: ProviderServer): Promise<RpcProcess> {
  return new RpcProcess(agent.command(server.url));
}

/** spawn → first get_state response, ms; the baseline is a compiled Bun program that answers one line. */
export async function startup(agents: Agent[], baseline: string, rounds: number): Promise<Row> {
  const baselineAgent: Agent = { name: "baseline", version: "", command: () => ({ cmd: [baseline], env: { PATH: process.env.PATH ?? "" }, cwd: "/" }), editArgs: () => ({}) };
  const measure: Measure = async (rpc) => {
    // the baseline answers its first line without an id, so any response counts
    const response = rpc.waitForType("response");
    rpc.send({ id: "s", type: "get_state" });
    await response;
    return performance.now() - rpc.spawnedAt;
  };
  return alternate("spawn → get_state", [...agents, baselineAgent], rounds, measure, spawned);
}

/** RSS once one short prompt has run and the process has been quiet for a second, MiB. */
export async function idleRss(agents: Agent[], rounds: number): Promise<Row> {
  return alternate("idle RSS", agents, rounds, async (rpc, server) => {
    server.enqueue(chat.text("Hello there, a short answer."));
    const end = rpc.waitForType("agent_end");
    await rpc.request({ type: "prompt", message: "hi" });
    await end;
    await Bun.sleep(1000);
    return rpc.rssKb() / 1024;
  });
}

export interface Stream {
  ms: Row;
  cpuMs: Row;
  bytes: Row;
}

/** An answer of `deltas` text deltas: prompt → agent_end wall time, the agent's CPU time, stdout bytes. */
export async function stream(agents: Agent[], deltas: number): Promise<Stream> {
  const out: Stream = { ms: {}, cpuMs: {}, bytes: {} };
  const answer = prose(deltas);
  out.ms = await alternate(`${deltas} deltas`, agents, 1, async (rpc, server, agent) => {
    server.enqueue(chat.text(answer, { fragment: 4, chunkSize: 16384 }));
    const end = rpc.waitForType("agent_end", 600_000);
    const cpu0 = rpc.cpuMs();
    const bytes0 = rpc.bytes;
    const start = performance.now();
    out.cpuMs[agent.name] = out.bytes[agent.name] = Number.NaN;
    let last: any;
    try {
      await rpc.request({ type: "prompt", message: "go" });
      last = (await end).data.messages.at(-1);
    } catch (error) {
      (error as Error).message = (error as Error).message.replace(/^.*/, (first) => `${first}, after ${rpc.bytes - bytes0} bytes on stdout`);
      throw error;
    }
    const ms = performance.now() - start;
    out.cpuMs[agent.name] = rpc.cpuMs() - cpu0;
    out.bytes[agent.name] = rpc.bytes - bytes0;
    const text = last?.content?.[0]?.text;
    if (text !== answer) throw new Error(`the answer came back as ${String(text).length} characters, expected ${answer.length}`);
    return ms;
  });
  return out;
}

/**
 * `deltas` pseudo-random 4-character words: a streamed answer of exactly that
 * many deltas (fragment 4) that no loop guard mistakes for a stuck model
 * (oh-my-pi aborts and retries a stream that repeats a short cycle).
 */
function prose(deltas: number): string {
  let text = "";
  for (let i = 1; i <= deltas; i++) text += (Math.imul(i, 2654435761) >>> 0).toString(36).slice(-3).padStart(3, "q") + " ";
  return text;
}

/** A 9 MiB prompt line: the process's peak RSS (VmHWM) once it has dealt with it, MiB. */
export async function bigLine(agents: Agent[]): Promise<Row> {
  const line = JSON.stringify({ id: "big", type: "prompt", message: "x".repeat(9 * 1024 * 1024) }) + "\n";
  return alternate("9 MiB line", agents, 1, async (rpc, server) => {
    // a 9 MiB prompt overflows any context window: no compaction afterwards, just the turn
    await rpc.request({ type: "set_auto_compaction", enabled: false });
    server.enqueue(chat.text("That is a lot of x."));
    const response = rpc.waitFor((f) => f.type === "response" && (f.data.id === "big" || f.data.command === "parse"));
    const end = rpc.waitForType("agent_end");
    // nova never starts this turn: its waiter must not fail the run later
    end.catch(() => {});
    rpc.send(line);
    // nova refuses a record over 8 MiB while it streams past; the peers run the turn
    if ((await response).data.success) await end;
    return rpc.rssKb("VmHWM") / 1024;
  });
}

/** 20 tool calls (read, edit, bash in turn) and a final answer: prompt → agent_end, ms. */
export async function toolLoop(agents: Agent[], calls = 20): Promise<Row> {
  return alternate(`${calls}-call tool loop`, agents, 1, async (rpc, server, agent) => {
    writeFileSync(join(rpc.launch.cwd, "work.txt"), `count=0\n${"filler line\n".repeat(200)}`);
    let edits = 0;
    for (let i = 0; i < calls; i++) {
      const kind = i % 3;
      const args = kind === 0 ? { path: "work.txt" } : kind === 1 ? agent.editArgs("work.txt", `count=${edits}`, `count=${++edits}`) : { command: "wc -c work.txt" };
      server.enqueue(chat.toolCalls([{ id: `call_${i}`, name: ["read", "edit", "bash"][kind]!, args }], { chunkSize: ONE_CHUNK }));
    }
    server.enqueue(chat.text("All done.", { chunkSize: ONE_CHUNK }));
    const failed: string[] = [];
    rpc.onFrame((f) => {
      if (f.type === "tool_execution_end" && f.data.isError) failed.push(`${f.data.toolName}: ${JSON.stringify(f.data.result).slice(0, 200)}`);
    });
    const end = rpc.waitForType("agent_end");
    const start = performance.now();
    await rpc.request({ type: "prompt", message: "work on work.txt" });
    await end;
    const ms = performance.now() - start;
    if (failed.length > 0) throw new Error(`${failed.length} tool calls failed, first: ${failed[0]}`);
    return ms;
  });
}

/** abort sent after the first streamed delta → agent_end, ms. */
export async function abortLatency(agents: Agent[], rounds: number): Promise<Row> {
  return alternate("abort", agents, rounds, async (rpc, server) => {
    server.enqueue(cutAfter(chat.text("Xyzzy streaming forever"), "Xyzz", "stall"));
    const delta = rpc.waitForType("message_update");
    const end = rpc.waitForType("agent_end");
    await rpc.request({ type: "prompt", message: "go" });
    await delta;
    const start = performance.now();
    rpc.send({ type: "abort", id: "abort" });
    await end;
    return performance.now() - start;
  });
}
