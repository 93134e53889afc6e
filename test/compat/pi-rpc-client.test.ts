/**
 * A host written for Pi works against nova unchanged: Pi's own published
 * RpcClient drives nova (from source and compiled) through every method it
 * wraps, and gets the shapes its types promise. Where nova deliberately
 * differs (PROTOCOL.md §3-§5, docs/compat.md) the test says so at the spot.
 */
import { afterEach, beforeAll, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fixtures } from "../support/fixtures/index.ts";
import { cutAfter } from "../support/scenario.ts";
import { requireBinary, targets } from "../support/targets.ts";
import { loadPi, nextEvent, startPi, type PiSetup, type PiSetupOptions, type RpcClient } from "./pi.ts";

const f = fixtures.openaiChat;
let pi: Awaited<ReturnType<typeof loadPi>>;
// a clean clone installs the client here first: allow for a slow registry
beforeAll(async () => {
  pi = await loadPi();
}, 180_000);

let open: PiSetup[] = [];
afterEach(async () => {
  await Promise.all(open.map((s) => s.close()));
  open = [];
});

/** Every method the client wraps that this file calls; the last test checks none is missed. */
const covered = new Set<string>();
function track(client: RpcClient): RpcClient {
  return new Proxy(client, {
    get(target, key, receiver) {
      if (typeof key === "string") covered.add(key);
      return Reflect.get(target, key, receiver);
    },
  });
}

const modelKeys = ["id", "name", "api", "provider", "baseUrl", "reasoning", "input", "contextWindow", "maxTokens", "cost"];
const userTexts = (messages: any[]) => messages.filter((m) => m.role === "user").map((m) => (typeof m.content === "string" ? m.content : m.content[0].text));

describe.each(targets)("Pi's RpcClient against nova ($name)", (target) => {
  async function setup(options: Omit<PiSetupOptions, "target"> = {}) {
    if (target.binary) requireBinary();
    const s = await startPi(pi.RpcClient, { target, ...options });
    open.push(s);
    return { ...s, client: track(s.client) };
  }

  test("prompt, events through onEvent, waitForIdle; state, messages and last text", async () => {
    const { client, server, events } = await setup();
    const before = await client.getState();
    expect(before).toMatchObject({
      thinkingLevel: "off",
      isStreaming: false,
      isCompacting: false,
      steeringMode: "one-at-a-time",
      followUpMode: "one-at-a-time",
      autoCompactionEnabled: true,
      messageCount: 0,
      pendingMessageCount: 0,
    });
    expect(before.model).toMatchObject({ provider: "test", id: "m1" });
    expect(Object.keys(before.model!)).toEqual(expect.arrayContaining(modelKeys));
    expect(before.sessionId).toBeString();
    // Pi's client hands get_last_assistant_text's `text` back as is: Pi sends no
    // field (undefined) when there is none, nova sends null (PROTOCOL.md §4).
    expect(await client.getLastAssistantText()).toBeNull();

    server.enqueue(f.text("Hello from nova"));
    const settled = nextEvent(client, (e) => e.type === "agent_settled");
    // events are read as the wire gives them (nova's light message_update is not Pi's type)
    const run: any[] = await client.promptAndWait("hi");
    // nova writes {"type":"ready",...} before anything else; the client has no
    // pending request for it, so its listeners get it as an event.
    expect(events[0]).toMatchObject({ type: "ready", protocolVersion: expect.any(String) });
    const outline = run.filter((e) => e.type !== "message_update").map((e) => (e.type.startsWith("message_") ? `${e.type}:${e.message.role}` : e.type));
    expect(outline).toEqual(["agent_start", "turn_start", "message_start:user", "message_end:user", "message_start:assistant", "message_end:assistant", "turn_end", "agent_end"]);
    const updates = run.filter((e) => e.type === "message_update");
    const text = updates
      .filter((e) => e.assistantMessageEvent.type === "text_delta")
      .map((e) => e.assistantMessageEvent.delta)
      .join("");
    expect(text).toBe("Hello from nova");
    // Deliberate difference: message_update carries a light header, not Pi's
    // growing partial message (no content, no assistantMessageEvent.partial);
    // --message-snapshots restores Pi's shape (next test).
    expect(updates[0].message).toEqual({ role: "assistant", provider: "test", model: "m1" });
    expect(updates[0].assistantMessageEvent.partial).toBeUndefined();
    expect(run.find((e) => e.type === "turn_end")).toMatchObject({ message: { role: "assistant", stopReason: "stop" }, toolResults: [] });
    const end = run.at(-1);
    // agent_end: Pi lists the run's new messages, nova the whole conversation;
    // the run's messages are at its end either way.
    expect(end.messages.map((m: any) => m.role).slice(-2)).toEqual(["user", "assistant"]);
    expect(end.messages.at(-1)).toMatchObject({ role: "assistant", stopReason: "stop", content: [{ type: "text", text: "Hello from nova" }], usage: { input: 10, output: 5 } });
    // agent_settled (later Pi versions have it too) follows: nothing more will happen on its own.
    expect(await settled).toEqual({ type: "agent_settled", aborted: false });

    const messages = await client.getMessages();
    expect(messages.map((m) => m.role)).toEqual(["user", "assistant"]);
    expect(messages[1]).toEqual(end.messages.at(-1));
    expect(await client.getLastAssistantText()).toBe("Hello from nova");
    expect(await client.getState()).toMatchObject({ isStreaming: false, messageCount: 2, pendingMessageCount: 0 });
  });

  test("--message-snapshots, passed through the client's args, gives Pi's full partial messages", async () => {
    const { client, server } = await setup({ args: ["--message-snapshots"] });
    server.enqueue(f.text("Snapshots grow with the answer"));
    const run: any[] = await client.promptAndWait("hi");
    const updates = run.filter((e) => e.type === "message_update");
    const last = updates.findLast((e) => e.assistantMessageEvent.type === "text_delta");
    expect(last.message.content[0].text).toBe("Snapshots grow with the answer");
    expect(last.assistantMessageEvent.partial).toEqual(last.message);
  });

  test("a tool call, a steer while it runs and a follow-up: one run, one agent_end for waitForIdle", async () => {
    const { client, server } = await setup();
    server.enqueue(f.toolCalls([{ id: "c1", name: "bash", args: { command: "sleep 0.3; echo tool-out" } }]), f.text("steered"), f.text("followed up"));
    const toolStarted = nextEvent(client, (e) => e.type === "tool_execution_start");
    const toolEnded = nextEvent(client, (e) => e.type === "tool_execution_end");
    const agentEnds: any[] = [];
    client.onEvent((e) => e.type === "agent_end" && agentEnds.push(e));
    const idle = client.waitForIdle();
    await client.prompt("run the tool");
    const start = await toolStarted;
    expect(start).toMatchObject({ toolCallId: "c1", toolName: "bash", args: { command: "sleep 0.3; echo tool-out" } });
    await client.steer("change course");
    await client.followUp("and then this");
    await idle;
    const ended = await toolEnded;
    expect(ended).toMatchObject({ toolCallId: "c1", toolName: "bash", isError: false, result: { content: [{ type: "text" }] } });
    expect(ended.result.content[0].text).toContain("tool-out");
    expect(await client.getState()).toMatchObject({ isStreaming: false, pendingMessageCount: 0 });
    expect(agentEnds).toHaveLength(1);
    const messages = await client.getMessages();
    expect(userTexts(messages)).toEqual(["run the tool", "change course", "and then this"]);
    expect(messages.find((m) => m.role === "toolResult")).toMatchObject({ toolCallId: "c1", toolName: "bash", isError: false });
    expect(JSON.stringify(server.requests[1]!.body)).toContain("change course");
    expect(JSON.stringify(server.requests[2]!.body)).toContain("and then this");
    expect(await client.getLastAssistantText()).toBe("followed up");
  });

  test("abort ends the streaming turn; waitForIdle resolves and the next prompt works", async () => {
    const { client, server } = await setup();
    server.enqueue(cutAfter(f.text("Xyzzy streaming forever"), "Xyzz", "stall"), f.text("second"));
    const streaming = nextEvent(client, (e) => e.type === "message_update");
    const idle = client.waitForIdle();
    await client.prompt("go");
    await streaming;
    expect((await client.getState()).isStreaming).toBe(true);
    await client.abort();
    await idle;
    const messages = await client.getMessages();
    expect(messages.at(-1)).toMatchObject({ role: "assistant", stopReason: "aborted" });
    expect((await client.getState()).isStreaming).toBe(false);
    await client.promptAndWait("again");
    expect(await client.getLastAssistantText()).toBe("second");
  });

  test("models and thinking: set_model, cycle_model, get_available_models, thinking levels, modes, toggles", async () => {
    const { client } = await setup();
    const available = await client.getAvailableModels();
    expect(available.map((m) => `${m.provider}/${m.id}`)).toEqual(["test/m1", "test/m2"]);
    for (const model of available) expect(Object.keys(model)).toEqual(expect.arrayContaining(modelKeys));
    expect(await client.cycleThinkingLevel()).toBeNull(); // m1 does not reason: Pi answers null too

    const m2 = await client.setModel("test", "m2");
    expect(m2).toMatchObject({ provider: "test", id: "m2", reasoning: true, contextWindow: 50000, maxTokens: 2048 });
    await expect(client.setModel("test", "nope")).rejects.toThrow("Model not found: test/nope");
    await client.setThinkingLevel("high");
    expect((await client.getState()).thinkingLevel).toBe("high");
    const cycled = await client.cycleThinkingLevel();
    expect(cycled!.level).not.toBe("high");
    expect((await client.getState()).thinkingLevel).toBe(cycled!.level);

    const next = await client.cycleModel();
    expect(next).toMatchObject({ model: { provider: "test", id: "m1" }, isScoped: false });
    expect(next!.thinkingLevel).toBeString();
    expect((await client.getState()).model).toMatchObject({ id: "m1" });

    await client.setSteeringMode("all");
    await client.setFollowUpMode("all");
    await client.setAutoCompaction(false);
    await client.setAutoRetry(false);
    await client.abortRetry();
    expect(await client.getState()).toMatchObject({ steeringMode: "all", followUpMode: "all", autoCompactionEnabled: false });
  });

  test("bash: Pi's BashResult, output in the context for the next prompt; abort_bash cancels", async () => {
    const { client, server } = await setup();
    expect(await client.bash("echo hello-bash")).toEqual({ output: "hello-bash\n", exitCode: 0, cancelled: false, truncated: false });
    const messages = await client.getMessages();
    expect(messages[0]).toMatchObject({ role: "bashExecution", command: "echo hello-bash", output: "hello-bash\n", exitCode: 0 });
    server.enqueue(f.text("seen"));
    await client.promptAndWait("what did it print?");
    expect(JSON.stringify(server.requests[0]!.body)).toContain("hello-bash");

    const running = client.bash("sleep 30");
    await client.getState(); // answered while bash runs: bash is dispatched concurrently
    await client.abortBash();
    expect(await running).toMatchObject({ cancelled: true });
  });

  test("compact: Pi's CompactionResult and a summary at the head of the context", async () => {
    const { client, server } = await setup({ extra: { compaction: { enabled: true, reserveTokens: 200, keepRecentTokens: 30 } } });
    const usage = { input: 300, output: 100 };
    server.enqueue(f.text("A".repeat(400), { usage }), f.text("B".repeat(400), { usage }), f.text("SUMMARY OF EARLIER WORK"));
    await client.promptAndWait("first question");
    await client.promptAndWait("second question");
    const result = await client.compact("focus on questions");
    expect(result).toMatchObject({ summary: "SUMMARY OF EARLIER WORK" });
    expect(result.firstKeptEntryId).toBeString();
    expect(result.tokensBefore).toBeGreaterThan(0);
    expect(JSON.stringify(server.requests[2]!.body)).toContain("focus on questions");
    const messages = await client.getMessages();
    expect(messages[0]).toMatchObject({ role: "compactionSummary", summary: "SUMMARY OF EARLIER WORK" });
  });

  test("sessions: stats, name, fork points, fork, export_html, new_session, switch_session, commands", async () => {
    const { client, server, cwd } = await setup();
    server.enqueue(f.text("A1"), f.text("A2"));
    await client.promptAndWait("first");
    await client.promptAndWait("second");
    const stats = await client.getSessionStats();
    expect(stats).toMatchObject({
      userMessages: 2,
      assistantMessages: 2,
      toolCalls: 0,
      toolResults: 0,
      totalMessages: 4,
      tokens: { input: 20, output: 10, cacheRead: 0, cacheWrite: 0, total: 30 },
    });
    expect(stats.cost).toBeNumber();

    await client.setSessionName("  my work  ");
    // The client does not read the responses of its void methods; an empty
    // name is refused ("Session name cannot be empty") and leaves the name as it was.
    await client.setSessionName("   ");
    const state = await client.getState();
    expect(state.sessionName).toBe("my work");
    expect(stats.sessionFile).toBe(state.sessionFile);
    expect(readFileSync(state.sessionFile!, "utf8")).toContain('"my work"');

    const out = join(cwd, "export", "session.html");
    expect(await client.exportHtml(out)).toEqual({ path: out });
    expect(readFileSync(out, "utf8")).toContain("second");

    const points = await client.getForkMessages();
    expect(points.map((p) => p.text)).toEqual(["first", "second"]);
    expect(await client.fork(points[1]!.entryId)).toEqual({ text: "second", cancelled: false });
    expect(userTexts(await client.getMessages())).toEqual(["first"]);

    expect(await client.newSession()).toEqual({ cancelled: false });
    const fresh = await client.getState();
    expect(fresh.messageCount).toBe(0);
    expect(fresh.sessionId).not.toBe(state.sessionId);
    expect(await client.switchSession(state.sessionFile!)).toEqual({ cancelled: false });
    const switched = await client.getState();
    // Reopened, a session continues from its file's last entry (as in Pi): the
    // name was given on the first branch, so that is where it resumes.
    expect(switched).toMatchObject({ sessionId: state.sessionId, sessionName: "my work", messageCount: 4 });

    // nova has no extension, prompt-template or skill commands to list yet: the shape, empty.
    expect(await client.getCommands()).toEqual([]);
  });

  test("clone copies the current branch into a new session that continues from it", async () => {
    const { client, server } = await setup();
    server.enqueue(f.text("A1"), f.text("A2"));
    await client.promptAndWait("first");
    const original = await client.getState();
    expect(await client.clone()).toEqual({ cancelled: false });
    const copy = await client.getState();
    expect(copy.sessionId).not.toBe(original.sessionId);
    expect(userTexts(await client.getMessages())).toEqual(["first"]);
    await client.promptAndWait("second");
    expect(userTexts(await client.getMessages())).toEqual(["first", "second"]);
    expect(readFileSync(original.sessionFile!, "utf8")).not.toContain('"second"');
  });
});

test("every method Pi's RpcClient (the pinned 0.73.1) wraps is exercised above", () => {
  expect(pi.version).toBe("0.73.1");
  const plumbing = ["constructor", "start", "stop", "onEvent", "getStderr", "waitForIdle", "collectEvents", "handleLine", "send", "getData"];
  const methods = Object.getOwnPropertyNames(pi.RpcClient.prototype).filter((name) => !plumbing.includes(name));
  expect(methods.length).toBeGreaterThan(25);
  expect(methods.filter((name) => !covered.has(name))).toEqual([]);
});
