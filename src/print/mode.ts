/**
 * The one-shot front ends: `-p` (the final answer on stdout, progress on
 * stderr) and `--mode json` (a session header, then the RPC event frames of
 * each prompt's run). Both drive the same AgentSession as rpc/ and acp/; no
 * one answers questions here, so a flagged command is denied, never waited on.
 */
import { AgentSession, type SessionOptions } from "../agent/session.ts";
import { Subagents } from "../agent/subagents.ts";
import type { AgentEvent } from "../agent/events.ts";
import type { AssistantMessage } from "../core/messages.ts";
import { blockText } from "../core/text.ts";
import { toFrame } from "../wire/event-frame.ts";
import { claimStdout } from "../wire/writer.ts";
import { Progress } from "./progress.ts";
import { startIn, type StartSession } from "../agent/launch.ts";
import { createMcp } from "../mcp/index.ts";
import type { RunOptions } from "../agent/run-options.ts";
import type { Limits } from "../agent/budget.ts";

export interface OneShot {
  /** --mode json; otherwise -p */
  json: boolean;
  prompts: string[];
  quiet: boolean;
  /** --session, --continue, --fork, --session-id, --name */
  start?: StartSession;
  noMcp: boolean;
  /** --output-schema FILE */
  outputSchema?: string;
  /** --max-turns, --max-budget-usd */
  limits?: Limits;
}

/** Pi's json mode header: the session file's header line, version 3. */
const JSON_HEADER_VERSION = 3;

export async function runOneShot(sessionOptions: SessionOptions, how: OneShot): Promise<number> {
  const prompts = withStdin(how.json ? how.prompts : [how.prompts.join(" ")].filter((p) => p !== ""), await pipedStdin());
  if (prompts.length === 0) {
    process.stderr.write(`nova: ${how.json ? "--mode json" : "-p"} needs a prompt: words after the options, or text on stdin\nRun 'nova --help' for usage.\n`);
    return 2;
  }
  const options = await runOptions(how);
  if (typeof options === "string") {
    process.stderr.write(`nova: ${options}\n`);
    return 2;
  }
  // the raw stdout for -p's answer; everything else written there goes to stderr
  const answerOut = process.stdout.write.bind(process.stdout);
  const writer = claimStdout();
  const subagents = new Subagents(sessionOptions, sessionOptions.config.agent);
  const mcp = createMcp(
    sessionOptions.config,
    how.noMcp,
    {
      onStatus: how.json ? (status) => writer.send({ type: "mcp_server_status", ...status }) : () => {},
      onNotice: (text) => process.stderr.write(`nova: ${text}\n`),
    },
    sessionOptions.sandbox,
  );
  const session = new AgentSession({ ...sessionOptions, mcp: mcp.view(), subagents: (parent) => subagents.runnerFor(parent) });
  startIn(session, how.start, sessionOptions.model !== undefined);

  const run: { last?: AssistantMessage; end?: Extract<AgentEvent, { type: "agent_end" }> } = {};
  session.subscribe((event) => {
    if (event.type === "message_end" && event.message.role === "assistant") run.last = event.message;
    else if (event.type === "agent_end") run.end = event;
  });
  const model = session.model ? `${session.model.provider}/${session.model.id}` : "no model";
  const progress = how.json || how.quiet ? undefined : new Progress(process.stderr, process.stderr.isTTY === true, model);
  if (how.json) {
    const { store } = session;
    writer.send({ type: "session", version: JSON_HEADER_VERSION, id: store.sessionId, timestamp: store.header.timestamp, cwd: session.cwd });
    session.subscribe((event: AgentEvent) => {
      writer.send(toFrame(event, false));
      return writer.drained();
    });
  } else if (progress) session.subscribe((event) => progress.onEvent(event));
  void mcp.setServers("config", sessionOptions.config.mcpServers);

  let signal: "SIGINT" | "SIGTERM" | undefined;
  const interrupt = (name: "SIGINT" | "SIGTERM") => {
    // a second Ctrl-C does not wait for the abort to finish
    if (signal) process.exit(exitCodeFor(name));
    signal = name;
    void session.abort();
  };
  process.on("SIGINT", () => interrupt("SIGINT"));
  process.on("SIGTERM", () => interrupt("SIGTERM"));

  let code = 0;
  for (const text of prompts) {
    run.last = undefined;
    run.end = undefined;
    const expanded = text.startsWith("/") ? await session.options.mcp?.expand(text) : undefined;
    session.prompt(expanded?.text ?? text, expanded?.images ?? [], undefined, options);
    await session.waitForIdle();
    if (signal) break;
    const failure = failureOf(run.last as AssistantMessage | undefined, run.end);
    if (failure) {
      progress?.stop();
      process.stderr.write(`nova: ${failure}\n`);
      code = 1;
      break;
    }
  }
  progress?.stop();
  session.store.close();
  await Promise.all([writer.flush(), mcp.close()]);
  if (signal) {
    process.stderr.write("nova: interrupted\n");
    return exitCodeFor(signal);
  }
  if (how.json || code !== 0) return code;
  const structured = run.end && "structuredOutput" in run.end;
  const answer = structured ? `${JSON.stringify(run.end!.structuredOutput)}\n` : blockText(run.last!.content);
  const shown = process.stdout.isTTY ? Bun.markdown.ansi(answer) : answer.endsWith("\n") || answer === "" ? answer : `${answer}\n`;
  await new Promise<void>((resolve) => answerOut(shown, () => resolve()));
  return 0;
}

/** Why the prompt's run gave no answer, or undefined when it did. */
function failureOf(last: AssistantMessage | undefined, end: Extract<AgentEvent, { type: "agent_end" }> | undefined): string | undefined {
  if (last?.stopReason === "aborted") return "the run was aborted";
  if (end?.stopReason) return `stopped: ${end.stopReason} (the prompt's budget is used up)`;
  if (!last || last.stopReason === "error") return `error: ${last?.errorMessage ?? "the run ended without an answer"}`;
  if (end?.error) return `error: ${end.error}`;
  return undefined;
}

/** --output-schema's file, compiled, and the limits; a message when the file will not do. */
async function runOptions(how: OneShot): Promise<RunOptions | undefined | string> {
  const limits = how.limits && (how.limits.maxTurns !== undefined || how.limits.maxCostUsd !== undefined) ? how.limits : undefined;
  if (how.outputSchema === undefined) return limits && { limits };
  const file = Bun.file(how.outputSchema);
  if (!(await file.exists())) return `--output-schema: ${how.outputSchema}: file not found`;
  let schema: unknown;
  try {
    schema = JSON.parse(await file.text());
  } catch (error) {
    return `--output-schema: ${how.outputSchema}: not JSON: ${(error as Error).message}`;
  }
  try {
    const { compileOutputSchema } = await import("../agent/structured-output.ts");
    return { output: compileOutputSchema(schema), limits };
  } catch (error) {
    return `--output-schema: ${how.outputSchema}: ${(error as Error).message}`;
  }
}

function exitCodeFor(signal: "SIGINT" | "SIGTERM"): number {
  return signal === "SIGINT" ? 130 : 143;
}

/** Text piped into nova (`git diff | nova -p "review this"`); nothing when stdin is a terminal. */
async function pipedStdin(): Promise<string> {
  if (process.stdin.isTTY) return "";
  return (await Bun.stdin.text()).trimEnd();
}

/** Piped text comes first, as Pi does: it is what the prompt talks about. */
function withStdin(prompts: string[], stdin: string): string[] {
  if (stdin === "") return prompts;
  if (prompts.length === 0) return [stdin];
  return [`${stdin}\n\n${prompts[0]}`, ...prompts.slice(1)];
}
