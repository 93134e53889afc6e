/**
 * `bun run bench:peers`: nova (compiled) against Pi (0.73 and 1.6), oh-my-pi,
 * and the headless modes of Claude Code, Codex, Gemini CLI and opencode, all
 * installed from the npm registry into .bench-tmp/peers and pointed at one
 * local scripted provider that answers each in its own wire format, measured
 * in one run with the agents alternating, each driven over its own protocol.
 * Prints the table of values and nova/peer ratios and the issue's targets,
 * and keeps the latest run in bench/RESULTS.md.
 */
import { existsSync } from "node:fs";
import { compile, NOVA, ROOT } from "./lib.ts";
import { agents, installed, installPeers, nodeVersion } from "./peers/agents.ts";
import { abortLatency, bigLine, failures, idleRss, startup, stream, toolLoop, type Row } from "./peers/measures.ts";
import { table, targetList, writeResults, type Measured, type Target } from "./peers/report.ts";

const STARTUP_ROUNDS = 15;

const build = Bun.spawnSync(["bun", "run", "build"], { cwd: ROOT, stdout: "ignore", stderr: "inherit" });
if (!build.success || !existsSync(NOVA)) throw new Error("bun run build failed");
installPeers();
const baseline = await compile(`${ROOT}/bench/baseline/echo.ts`, "baseline-echo");
const names = agents.map((a) => a.name);
const log = (what: string) => process.stderr.write(`bench:peers: ${what}\n`);

log(`spawn → first response, ${STARTUP_ROUNDS} rounds`);
const spawn = await startup(agents, baseline, STARTUP_ROUNDS);
log("idle RSS");
const idle = await idleRss(agents, 3);
log("2 000 deltas");
const small = await stream(agents, 2000);
log("20 000 deltas");
const large = await stream(agents, 20000);
log("9 MiB line");
const big = await bigLine(agents);
log("tool loop");
const tools = await toolLoop(agents);
log("abort");
const abort = await abortLatency(agents, 5);

const perDelta = (bytes: Row, deltas: number): Row => Object.fromEntries(Object.entries(bytes).map(([k, v]) => [k, v / deltas]));
const small1 = perDelta(small.bytes, 2000);
const large1 = perDelta(large.bytes, 20000);
const rows: Measured[] = [
  { label: `spawn → first response (Pi RPC: get_state; others: initialize), ms (median of ${STARTUP_ROUNDS})`, row: spawn, digits: 1 },
  { label: "idle RSS after one short prompt, MiB (median of 3)", row: idle, digits: 1 },
  { label: "2 000 deltas: prompt → end of turn, ms", row: small.ms },
  { label: "2 000 deltas: agent CPU, ms", row: small.cpuMs },
  { label: "2 000 deltas: stdout bytes per delta", row: small1, digits: 1 },
  { label: "20 000 deltas: prompt → end of turn, ms", row: large.ms },
  { label: "20 000 deltas: agent CPU, ms", row: large.cpuMs },
  { label: "20 000 deltas: stdout bytes per delta", row: large1, digits: 1 },
  { label: "9 MiB prompt line (Pi RPC): peak RSS, MiB", row: big, digits: 1, na: agents.filter((a) => a.protocol !== "pi").map((a) => a.name) },
  { label: "20-call tool loop (read/edit/shell): prompt → end of turn, ms", row: tools },
  { label: "abort → end of turn, ms (median of 5)", row: abort, digits: 1 },
];

const peers = names.filter((n) => n !== "nova");
const lowestIdle = Math.min(...peers.map((p) => idle[p]!).filter(Number.isFinite));
const piGrowth = (name: string) => (Number.isFinite(large1[name]) ? `×${(large1[name]! / small1[name]!).toFixed(1)}` : "failed");
const targets: Target[] = [
  ...["pi (node)", "pi (bun)", "pi 1.6 (bun)"].map((pi) => ({
    text: `spawn → get_state ≤ 1/10 of ${pi}'s`,
    met: spawn.nova! <= spawn[pi]! / 10,
    detail: `${spawn.nova!.toFixed(1)} ms vs ${spawn[pi]!.toFixed(1)} ms: ${(spawn.nova! / spawn[pi]!).toFixed(3)}`,
  })),
  {
    text: "spawn → get_state within 2.5× of a minimal compiled Bun program that answers one line",
    met: spawn.nova! <= 2.5 * spawn.baseline!,
    detail: `${spawn.nova!.toFixed(1)} ms vs ${spawn.baseline!.toFixed(1)} ms: ${(spawn.nova! / spawn.baseline!).toFixed(2)}×`,
  },
  {
    text: "idle RSS ≤ 1/2 of the lowest peer's",
    met: idle.nova! <= lowestIdle / 2,
    detail: `${idle.nova!.toFixed(1)} MiB vs ${lowestIdle.toFixed(1)} MiB: ${(idle.nova! / lowestIdle).toFixed(3)}`,
  },
  {
    text: "stdout for 20 000 deltas linear, ≤ 200 bytes per delta, where Pi's grows quadratically",
    met: large1.nova! <= 200 && Math.abs(large1.nova! / small1.nova! - 1) < 0.1,
    detail: `nova ${large1.nova!.toFixed(1)} B/delta at 20 000, ${small1.nova!.toFixed(1)} at 2 000; per-delta growth 2 000 → 20 000: ${peers.map((p) => `${p} ${piGrowth(p)}`).join(", ")}`,
  },
  {
    text: "peak RSS for the 9 MiB line ≤ 1/4 of Pi's",
    met: big.nova! <= big["pi (node)"]! / 4 && big.nova! <= big["pi (bun)"]! / 4,
    detail: `${big.nova!.toFixed(1)} MiB vs pi (node) ${big["pi (node)"]!.toFixed(1)} MiB, pi (bun) ${big["pi (bun)"]!.toFixed(1)} MiB`,
  },
];

const commit = Bun.spawnSync(["git", "rev-parse", "--short", "HEAD"], { cwd: ROOT }).stdout.toString().trim();
const node = nodeVersion();
const heading =
  `Run ${new Date().toISOString().slice(0, 16).replace("T", " ")} UTC on ${process.platform}-${process.arch}, ${navigator.hardwareConcurrency} cores: ` +
  `nova ${commit} (dist/nova, bun ${Bun.version}); @mariozechner/pi-coding-agent ${installed("@mariozechner/pi-coding-agent")} on node ${node} and on bun ${Bun.version}; ` +
  `@oh-my-pi/pi-coding-agent ${installed("@oh-my-pi/pi-coding-agent")} and @earendil-works/pi-coding-agent ${installed("@earendil-works/pi-coding-agent")} on bun ${Bun.version}; ` +
  `@anthropic-ai/claude-code ${installed("@anthropic-ai/claude-code")} (its linux-x64 binary); @openai/codex ${installed("@openai/codex")} (its linux-x64 binary, app-server); ` +
  `@google/gemini-cli ${installed("@google/gemini-cli")} on node ${node} (--acp); opencode-ai ${installed("opencode-ai")} (its linux-x64 binary, acp). ` +
  `Baseline (minimal compiled Bun program answering one line): ${spawn.baseline!.toFixed(1)} ms spawn → response.`;
const failed = failures.length > 0 ? `\n\nFailed runs (shown as "failed" above):\n\n${failures.map((f) => `- ${f}`).join("\n")}` : "";
const block = `${heading}\n\n${table(rows, names)}${failed}\n\nTargets:\n\n${targetList(targets)}`;
console.log(block);
log(`latest run written to ${writeResults(block)}`);
