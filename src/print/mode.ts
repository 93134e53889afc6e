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
import { resumeSession, type Resume } from "../agent/resume.ts";
import { createMcp } from "../mcp/index.ts";

export interface OneShot {
  /** --mode json; otherwise -p */
  json: boolean;
  prompts: string[];
  quiet: boolean;
  resume?: Resume;
  noMcp: boolean;
}

/** Pi's json mode header: the session file's header line, version 3. */
const JSON_HEADER_VERSION = 3;

export async function runOneShot(sessionOptions: SessionOptions, how: OneShot): Promise<number> {
  const prompts = withStdin(how.json ? how.prompts : [how.prompts.join(" ")].filter((p) => p !== ""), await pipedStdin());
  if (prompts.length === 0) {
    process.stderr.write(`nova: ${how.json ? "--mode json" : "-p"} needs a prompt: words after the options, or text on stdin\nRun 'nova --help' for usage.\n`);
    return 2;
  }
  // the raw stdout for -p's answer; everything else written there goes to stderr
  const answerOut = process.stdout.write.bind(process.stdout);
  const writer = claimStdout();
  const subagents = new Subagents(sessionOptions, sessionOptions.config.agent, how.json ? (frame) => writer.send(frame) : () => {});
  const mcp = createMcp(sessionOptions.config, how.noMcp, {
    onStatus: how.json ? (status) => writer.send({ type: "mcp_server_status", ...status }) : () => {},
    onNotice: (text) => process.stderr.write(`nova: ${text}\n`),
  });
  const session = new AgentSession({ ...sessionOptions, mcp: mcp.view(), subagents: (parent) => subagents.runnerFor(parent) });
  if (how.resume) {
    const problem = await resumeSession(session, how.resume);
    if (problem) {
      process.stderr.write(`nova: ${problem}\n`);
      return 2;
    }
  }

  const run: { last?: AssistantMessage } = {};
  session.subscribe((event) => {
    if (event.type === "message_end" && event.message.role === "assistant") run.last = event.message;
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
    const expanded = text.startsWith("/") ? await session.options.mcp?.expand(text) : undefined;
    session.prompt(expanded?.text ?? text, expanded?.images ?? []);
    await session.waitForIdle();
    if (signal) break;
    const last = run.last as AssistantMessage | undefined;
    if (!last || last.stopReason === "error" || last.stopReason === "aborted") {
      progress?.stop();
      process.stderr.write(`nova: ${last?.stopReason === "aborted" ? "the run was aborted" : `error: ${last?.errorMessage ?? "the run ended without an answer"}`}\n`);
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
  const answer = blockText(run.last!.content);
  const shown = process.stdout.isTTY ? Bun.markdown.ansi(answer) : answer.endsWith("\n") || answer === "" ? answer : `${answer}\n`;
  await new Promise<void>((resolve) => answerOut(shown, () => resolve()));
  return 0;
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
