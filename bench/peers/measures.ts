/**
 * What `bench:peers` measures, one function per row group. Every function
 * takes the agents in turn (the order rotates per round), each in a fresh
 * process, against the same scripted provider.
 */
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { median } from "../lib.ts";
import type { Agent } from "./agents.ts";
import { type BenchProvider, startBenchProvider, turns } from "./provider.ts";
import { openSession, type Session } from "./sessions.ts";

/** one network write per response: the provider adds one event-loop tick, not a delay per delta */
const ONE_CHUNK = 1 << 30;

export type Row = Record<string, number>;

/** What went wrong where a value is missing (NaN): "agent, measure: error". */
export const failures: string[] = [];

type Measure = (session: Session, server: BenchProvider, agent: Agent) => Promise<number>;

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
      const server = await startBenchProvider();
      let session: Session | undefined;
      try {
        session = await launch(agent, server);
        samples[agent.name]!.push(await measure(session, server, agent));
      } catch (error) {
        failures.push(`${agent!.name}, ${label}: ${summary(error as Error)}`);
        samples[agent!.name]!.push(Number.NaN);
      } finally {
        await session?.proc.stop();
        await server.close();
        const home = session?.proc.launch.home;
        if (home) rmSync(home, { recursive: true, force: true });
      }
    }
  }
  return Object.fromEntries(Object.entries(samples).map(([name, values]) => [name, values.some(Number.isNaN) ? Number.NaN : median(values)]));
}

/** The error's first line, and the agent's own error line from its stderr when there is one. */
function summary(error: Error): string {
  const [line, ...rest] = error.message.split("\n");
  const first = line!.replace(/^\/\S+\/(\S+)( \S+)*?: /, "$1: ").slice(0, 400);
  const own = rest.find((line) => /^\w*Error\b|error:/i.test(line.trim()));
  return own ? `${first} (${own.trim().slice(0, 300)})` : first;
}

async function started(agent: Agent, server: BenchProvider): Promise<Session> {
  const session = openSession(agent, server.url);
  await session.handshake();
  await session.open();
  return session;
}

/** Spawned, not yet asked anything: the start-up measure times its own first request. */
async function spawned(agent: Agent, server: BenchProvider): Promise<Session> {
  return openSession(agent, server.url);
}

/** A compiled Bun program that answers its first line with one line. */
function baselineAgent(baseline: string): Agent {
  const none = () => ({ name: "", args: {} });
  return {
    name: "baseline",
    version: "",
    protocol: "pi",
    command: () => ({ cmd: [baseline], env: { PATH: process.env.PATH ?? "" }, cwd: "/" }),
    tools: { read: none, edit: none, bash: none },
  };
}

/** spawn → the first response of the agent's protocol (Pi's get_state, the others' initialize), ms; the baseline answers one line. */
export async function startup(agents: Agent[], baseline: string, rounds: number): Promise<Row> {
  const measure: Measure = async (session, _server, agent) => {
    if (agent.name === "baseline") {
      // the baseline answers its first line without an id, so any response counts
      const response = session.proc.waitForType("response");
      session.proc.send({ id: "s", type: "get_state" });
      await response;
    } else await session.handshake();
    return performance.now() - session.proc.spawnedAt;
  };
  return alternate("spawn → first response", [...agents, baselineAgent(baseline)], rounds, measure, spawned);
}

/** RSS (the process and its children) once one short prompt has run and the process has been quiet for a second, MiB. */
export async function idleRss(agents: Agent[], rounds: number): Promise<Row> {
  return alternate("idle RSS", agents, rounds, async (session, server) => {
    server.enqueue(turns.text("Hello there, a short answer."));
    await session.prompt("hi");
    await Bun.sleep(1000);
    return session.proc.rssKb() / 1024;
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
  out.ms = await alternate(`${deltas} deltas`, agents, 1, async (session, server, agent) => {
    server.enqueue(turns.text(answer, { fragment: 4, chunkSize: 16384 }));
    const { proc } = session;
    const cpu0 = proc.cpuMs();
    const bytes0 = proc.bytes;
    const start = performance.now();
    out.cpuMs[agent.name] = out.bytes[agent.name] = Number.NaN;
    let text: string;
    try {
      text = await session.prompt("go", 600_000);
    } catch (error) {
      (error as Error).message = (error as Error).message.replace(/^.*/, (first) => `${first}, after ${proc.bytes - bytes0} bytes on stdout`);
      throw error;
    }
    const ms = performance.now() - start;
    out.cpuMs[agent.name] = proc.cpuMs() - cpu0;
    out.bytes[agent.name] = proc.bytes - bytes0;
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

/**
 * A 9 MiB prompt line: the process's peak RSS (VmHWM) once it has dealt with
 * it, MiB. Pi's RPC only: the line is one `prompt` command, and nova refuses
 * a record over 8 MiB while it streams past.
 */
export async function bigLine(agents: Agent[]): Promise<Row> {
  const rpcAgents = agents.filter((a) => a.protocol === "pi");
  const line = JSON.stringify({ id: "big", type: "prompt", message: "x".repeat(9 * 1024 * 1024) }) + "\n";
  const row = await alternate("9 MiB line", rpcAgents, 1, async ({ proc }, server) => {
    // a 9 MiB prompt overflows any context window: no compaction afterwards, just the turn
    await proc.request({ type: "set_auto_compaction", enabled: false });
    server.enqueue(turns.text("That is a lot of x."));
    const response = proc.waitFor((f) => f.type === "response" && (f.data.id === "big" || f.data.command === "parse"));
    const end = proc.waitForType("agent_end");
    // nova never starts this turn: its waiter must not fail the run later
    end.catch(() => {});
    proc.send(line);
    // nova refuses a record over 8 MiB while it streams past; the peers run the turn
    if ((await response).data.success) await end;
    return proc.rssKb("VmHWM") / 1024;
  });
  return { ...Object.fromEntries(agents.map((a) => [a.name, Number.NaN])), ...row };
}

/** 20 tool calls (read, edit, shell in turn) and a final answer: prompt → end of turn, ms. */
export async function toolLoop(agents: Agent[], calls = 20): Promise<Row> {
  return alternate(`${calls}-call tool loop`, agents, 1, async (session, server, agent) => {
    const file = join(session.proc.launch.cwd, "work.txt");
    writeFileSync(file, `count=0\n${"filler line\n".repeat(200)}`);
    let edits = 0;
    for (let i = 0; i < calls; i++) {
      const kind = i % 3;
      const call = kind === 0 ? agent.tools.read(file) : kind === 1 ? agent.tools.edit(file, `count=${edits}`, `count=${++edits}`) : agent.tools.bash(`wc -c ${file}`);
      server.enqueue(turns.toolCalls([{ id: `call_${i}`, ...call }], { chunkSize: ONE_CHUNK }));
    }
    server.enqueue(turns.text("All done.", { chunkSize: ONE_CHUNK }));
    const start = performance.now();
    await session.prompt("work on work.txt");
    const ms = performance.now() - start;
    if (session.toolFailures.length > 0) throw new Error(`${session.toolFailures.length} tool calls failed, first: ${session.toolFailures[0]}`);
    if (!readFileSync(file, "utf8").startsWith(`count=${edits}\n`)) throw new Error(`work.txt does not start with count=${edits} after the loop`);
    const scripted = server.asked.filter((a) => a.scripted).length;
    if (scripted !== calls + 1) throw new Error(`${scripted} model turns asked for, expected ${calls + 1}`);
    return ms;
  });
}

/** abort sent after the first streamed delta → end of the turn, ms. */
export async function abortLatency(agents: Agent[], rounds: number): Promise<Row> {
  return alternate("abort", agents, rounds, async (session, server) => {
    server.enqueue({ ...turns.text("Xyzzy streaming forever"), stallAfter: "Xyzz" });
    const delta = session.nextDelta();
    const turn = session.prompt("go");
    turn.catch(() => {});
    await delta;
    const start = performance.now();
    await session.abort();
    return performance.now() - start;
  });
}
