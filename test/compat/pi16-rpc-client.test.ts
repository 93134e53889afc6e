/**
 * A host written for Pi 1.6 works against nova: Pi 1.6.0's own published
 * RpcClient runs the same script of calls against nova and against Pi 1.6.0
 * itself (both on the scripted provider), and every method answers nova with
 * the shape it answers Pi with. Where they differ, the difference is one of
 * those docs/compat.md lists, named at the spot.
 */
import { beforeAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { tempDir } from "../support/nova.ts";
import { fixtures } from "../support/fixtures/index.ts";
import { startProviderServer } from "../support/provider-server.ts";
import { agentHome, loadPi16, rpcClient, type Agent, type Pi16 } from "./pi16.ts";

const f = fixtures.openaiChat;
let pi: Pi16;
beforeAll(async () => {
  pi = await loadPi16();
}, 180_000);

/** What one run of the script gave: each method's answer, every event, and what the model was sent. */
interface Run {
  results: Record<string, unknown>;
  events: any[];
  requests: any[];
}

/** Methods of the client the script calls; the coverage test checks none is missed. */
const called = new Set<string>();

/**
 * The script: the same calls in the same order against either agent, with
 * the scripted answers each needs queued just before.
 */
async function drive(agent: Agent): Promise<Run> {
  const server = await startProviderServer();
  const cwd = tempDir(`${agent}-cwd-`);
  const compaction = { enabled: true, reserveTokens: 200, keepRecentTokens: 30 };
  const home = agentHome(agent, server, { compaction }, { compaction });
  const raw = rpcClient(pi, agent, home, cwd);
  const client = new Proxy(raw, {
    get(target, key, receiver) {
      if (typeof key === "string") called.add(key);
      return Reflect.get(target, key, receiver);
    },
  });
  const events: any[] = [];
  client.onEvent((event: any) => events.push(event));
  const results: Record<string, unknown> = {};
  const call = async (name: string, run: () => Promise<unknown>) => {
    if (process.env.PROBE) console.error(agent, name);
    try {
      results[name] = await run();
    } catch (error) {
      results[name] = { threw: (error as Error).message };
    }
  };
  await client.start();
  try {
    await call("getState", () => client.getState());
    await call("getAvailableModels", () => client.getAvailableModels());
    await call("getAvailableThinkingLevels", () => client.getAvailableThinkingLevels());
    await call("getLastAssistantText", () => client.getLastAssistantText());

    server.enqueue(f.text("Hello there"));
    await call("prompt", async () => {
      const disposition = await client.prompt("hi");
      await client.waitForIdle();
      return disposition;
    });

    // a tool call keeps the run going while a steer and a follow-up arrive
    server.enqueue(f.toolCalls([{ id: "c1", name: "bash", args: { command: "sleep 0.5; echo tool-out" } }]), f.text("steered"), f.text("followed up"));
    const toolStarted = new Promise<void>((resolve) => client.onEvent((e: any) => e.type === "tool_execution_start" && resolve()));
    await client.prompt("run the tool");
    await toolStarted;
    await call("steer", () => client.steer("change course"));
    await call("followUp", () => client.followUp("and then this"));
    await client.waitForIdle();

    await call("getMessages", () => client.getMessages());
    await call("getLastAssistantText#after", () => client.getLastAssistantText());
    await call("getForkMessages", () => client.getForkMessages());

    await call("setModel", () => client.setModel("test", "m2"));
    await call("getAvailableThinkingLevels#m2", () => client.getAvailableThinkingLevels());
    await call("setThinkingLevel", () => client.setThinkingLevel("high"));
    await call("cycleThinkingLevel", () => client.cycleThinkingLevel());
    await call("cycleModel", () => client.cycleModel());
    await call("setSteeringMode", () => client.setSteeringMode("all"));
    await call("setFollowUpMode", () => client.setFollowUpMode("all"));
    await call("setAutoCompaction", () => client.setAutoCompaction(true));
    await call("setAutoRetry", () => client.setAutoRetry(false));
    await call("abortRetry", () => client.abortRetry());
    await call("clearQueue", () => client.clearQueue());

    await call("bash", () => client.bash("echo from-bash"));
    await call("abortBash", () => client.abortBash());

    await call("setSessionName", () => client.setSessionName("probe"));
    await call("getSessionStats", () => client.getSessionStats());

    server.enqueue(f.text("SUMMARY OF EARLIER WORK"));
    // Pi cuts inside the last turn here and summarises that turn's start in a second call
    if (agent === "pi") server.enqueue(f.text("TURN PREFIX SUMMARY"));
    await call("compact", () => client.compact());

    await call("getEntries", () => client.getEntries());
    const entries = (results.getEntries as { entries: { id: string }[] }).entries;
    await call("getEntries#since", () => client.getEntries(entries.at(-3)!.id));
    await call("getEntries#unknown", () => client.getEntries("no-such-entry"));
    await call("getTree", () => client.getTree());
    await call("getCommands", () => client.getCommands());
    await call("exportHtml", () => client.exportHtml(join(cwd, "export.html")));

    server.enqueue(f.text("collected"));
    await call("promptAndWait", () => client.promptAndWait("collect"));
    server.enqueue(f.text("stalls", { end: "stall" }));
    const streaming = new Promise<void>((resolve) => client.onEvent((e: any) => e.type === "message_update" && resolve()));
    await client.prompt("stall");
    await streaming;
    const settled = client.waitForIdle();
    await call("abort", () => client.abort());
    await settled;

    const state = (await client.getState()) as { sessionFile: string };
    await call("clone", () => client.clone());
    const forkPoint = ((await client.getForkMessages()) as { entryId: string }[])[0]!;
    await call("fork", () => client.fork(forkPoint.entryId));
    await call("newSession", () => client.newSession());
    await call("switchSession", () => client.switchSession(state.sessionFile));
    await call("getState#end", () => client.getState());
    results.getStderr = typeof client.getStderr();
  } finally {
    await client.stop();
    await server.close();
  }
  return { results, events, requests: server.requests.map((r) => r.body) };
}

/**
 * The shape of a value as a set of "path:type" lines: array elements merge
 * under `[]`, so two answers with the same fields give the same set whatever
 * their lengths and values.
 */
function shape(value: unknown, path = "", out = new Set<string>()): Set<string> {
  if (Array.isArray(value)) {
    out.add(`${path}:array`);
    for (const item of value) shape(item, `${path}[]`, out);
  } else if (value !== null && typeof value === "object") {
    out.add(`${path}:object`);
    for (const [key, item] of Object.entries(value)) shape(item, path ? `${path}.${key}` : key, out);
  } else out.add(`${path}:${value === null ? "null" : typeof value}`);
  return out;
}

/**
 * Paths Pi 1.6.0 answers with that nova does not, each one a difference
 * docs/compat.md lists.
 */
const documented: [RegExp, string][] = [
  // Pi persists its system prompt as system messages (and a checkpoint in each compaction); nova sends its own prompt
  [/\.(sections|toolsAdded|toolsRemoved)\b|systemMessage/, "system messages"],
  // assistant messages: Pi's provider diagnostics and the requested thinking level
  [/(^\[\]|message|messages\[\]|entries\[\]\.message|toolResults\[\])\.(responseId|responseModel|rawStopReason|durationMs|thinkingLevel):/, "assistant message extras"],
  [/usage\.(reasoning|cost\.totalFromProvider):/, "usage extras"],
  // Pi's compaction reports the summary call's usage
  [/^usage[.:]|(entries\[\]|entry)\.(usage|fromHook)[.:]|result\.usage[.:]/, "compaction usage"],
  // Pi's bash tool answers with structuredContent; nova's with its own details
  [/structuredContent|partialResult\.details/, "bash tool result"],
];

function undocumented(pi: unknown, nova: unknown): string[] {
  const have = shape(nova);
  return [...shape(pi)].filter((path) => !have.has(path) && !documented.some(([pattern]) => pattern.test(path)));
}

/** Every node of a get_tree answer, children removed, depth first. */
function nodes(tree: any[]): any[] {
  return tree.flatMap((node) => [{ ...node, children: [] }, ...nodes(node.children)]);
}

let nova: Run;
let piRun: Run;

describe("Pi 1.6.0's RpcClient: the same script against nova and against Pi 1.6.0", () => {
  beforeAll(async () => {
    [nova, piRun] = [await drive("nova"), await drive("pi")];
  }, 120_000);

  test("every method answers nova with the shape it answers Pi with", () => {
    const special = new Set(["getLastAssistantText", "getCommands", "getTree"]);
    const gaps: Record<string, string[]> = {};
    for (const [name, value] of Object.entries(piRun.results)) {
      if (special.has(name)) continue;
      const missing = undocumented(value, nova.results[name]);
      if (missing.length > 0) gaps[name] = missing;
    }
    expect(gaps).toEqual({});
    // get_last_assistant_text with no answer yet: Pi sends no text (undefined), nova null (compat.md)
    expect(piRun.results.getLastAssistantText).toBeUndefined();
    expect(nova.results.getLastAssistantText).toBeNull();
    // get_commands: Pi lists its built-in extensions' commands; nova has none (compat.md)
    expect(nova.results.getCommands).toEqual([]);
    // get_tree: the same node shape, and every entry of get_entries is in the tree once
    const piNodes = nodes((piRun.results.getTree as any).tree);
    const novaNodes = nodes((nova.results.getTree as any).tree);
    expect(undocumented(piNodes, novaNodes)).toEqual([]);
    const novaEntries = (nova.results.getEntries as any).entries;
    expect(novaNodes.map((n) => n.entry.id).sort()).toEqual(novaEntries.map((e: any) => e.id).sort());
    expect((nova.results.getTree as any).leafId).toBe((nova.results.getEntries as any).leafId);
  });

  test("the same answers where the script makes them equal", () => {
    for (const name of [
      "prompt",
      "steer",
      "followUp",
      "getAvailableThinkingLevels",
      "getAvailableThinkingLevels#m2",
      "cycleThinkingLevel",
      "clearQueue",
      "bash",
      "fork",
      "clone",
      "newSession",
      "switchSession",
      "getLastAssistantText#after",
    ]) {
      expect({ [name]: nova.results[name] }).toEqual({ [name]: piRun.results[name] });
    }
    expect(nova.results.prompt).toBe("started");
    expect(nova.results.steer).toBe("queued");
    expect(nova.results["getAvailableThinkingLevels#m2"]).toEqual(["off", "minimal", "low", "medium", "high"]);
    for (const run of [nova, piRun]) {
      expect(run.results["getEntries#unknown"]).toEqual({ threw: expect.stringContaining("Entry not found: ") });
      expect(run.results["getEntries#unknown"]).toEqual({ threw: expect.stringContaining("no-such-entry") });
      const all = (run.results.getEntries as any).entries;
      // since: the entries strictly after it, in append order
      expect((run.results["getEntries#since"] as any).entries).toEqual(all.slice(-2));
      expect(all.some((e: any) => e.type === "session")).toBe(false);
      // m1 again after cycle_model
      expect((run.results.getSessionStats as any).contextUsage).toEqual({ tokens: expect.any(Number), contextWindow: 100000, percent: expect.any(Number) });
      expect(run.results.compact).toMatchObject({
        summary: expect.stringContaining("SUMMARY OF EARLIER WORK"),
        firstKeptEntryId: expect.any(String),
        tokensBefore: expect.any(Number),
        estimatedTokensAfter: expect.any(Number),
      });
    }
  });

  test("every event Pi sends, nova sends, with Pi's fields", () => {
    const types = [...new Set(piRun.events.map((e) => e.type))];
    const gaps: Record<string, string[]> = {};
    for (const type of types) {
      const missing = undocumented(
        piRun.events.filter((e) => e.type === type),
        nova.events.filter((e) => e.type === type),
      );
      if (missing.length > 0) gaps[type] = missing;
    }
    expect(gaps).toEqual({});
    for (const type of [
      "message_update",
      "agent_settled",
      "agent_end",
      "tool_execution_end",
      "thinking_level_changed",
      "session_info_changed",
      "compaction_start",
      "compaction_end",
      "bash_execution_update",
    ]) {
      expect(types).toContain(type);
    }
    const settled = nova.events.filter((e) => e.type === "agent_settled");
    expect(settled.at(-1)).toEqual({ type: "agent_settled", aborted: true });
    expect(settled[0]).toEqual({ type: "agent_settled", aborted: false });
    expect(nova.events.find((e) => e.type === "session_info_changed")).toEqual({ type: "session_info_changed", name: "probe" });
    expect(nova.events.find((e) => e.type === "compaction_start")).toEqual({ type: "compaction_start", reason: "manual" });
    expect(nova.events.find((e) => e.type === "tool_execution_end").durationMs).toBeGreaterThanOrEqual(400);
    const updates = nova.events.filter((e) => e.type === "message_update");
    // usage is cumulative: the last delta of the first answer carries the answer's final usage
    expect(updates.every((e) => typeof e.usage?.totalTokens === "number")).toBe(true);
    // the ready frame (nova's contract) is the first thing the client's listeners see
    expect(nova.events[0]).toMatchObject({ type: "ready", protocolVersion: expect.any(String) });
  });

  test("every method Pi 1.6.0's RpcClient has is called by the script", () => {
    const internal = new Set(["constructor", "handleLine", "createProcessExitError", "rejectPendingRequests", "send", "getData"]);
    const methods = Object.getOwnPropertyNames(pi.RpcClient.prototype).filter((name) => !internal.has(name));
    expect(methods.filter((name) => !called.has(name))).toEqual([]);
    expect(pi.version).toBe("1.6.0");
  });
});
