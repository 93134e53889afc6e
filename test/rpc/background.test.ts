/** Background conversations and handoff, through the real process. */
import { afterEach, describe, expect, test } from "bun:test";
import { promptAndSettle, scenario, type Scenario } from "../support/scenario.ts";
import { fixtures } from "../support/fixtures/index.ts";
import { tempDir } from "../support/nova.ts";

const f = fixtures.openaiChat;
let s: Scenario | undefined;
afterEach(async () => {
  await s?.close();
  s = undefined;
});

/** A run held at a permission request: streaming until the test answers it. */
async function holdRun(message: string) {
  const from = s!.nova.frames.length;
  s!.server.enqueue(f.toolCalls([{ id: "h1", name: "bash", args: { command: "rm -rf ./held && echo released" } }]));
  await s!.nova.request({ type: "prompt", message });
  const request = await s!.nova.waitFor((fr) => fr.type === "permission_request", from);
  return request;
}

describe("background conversations", () => {
  test("detach, list, work in the new one, re-attach the live one", async () => {
    s = await scenario({ args: ["--session-dir", tempDir("nova-bg-")] });
    const held = await holdRun("long task");
    const first = (await s.nova.request({ type: "get_state" })).data;
    const beforeDetach = s.nova.frames.length;
    const detached = await s.nova.request({ type: "new_session", background: true });
    // the host's view of the run it saw start is closed
    expect(s.nova.frames.slice(beforeDetach).map((fr) => fr.type)).toEqual(["agent_end", "agent_settled", "response"]);
    expect(detached.success).toBe(true);
    expect(detached.data.background).toMatchObject({ sessionId: first.sessionId, streaming: true, displaced: [] });
    const fresh = (await s.nova.request({ type: "get_state" })).data;
    expect(fresh).toMatchObject({ isStreaming: false, messageCount: 0 });
    expect(fresh.sessionId).not.toBe(first.sessionId);
    const list = (await s.nova.request({ type: "get_background_sessions" })).data.sessions;
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({ sessionId: first.sessionId, streaming: true, stopping: false, title: "long task" });

    // the attached conversation works on its own; the background one stays silent
    s.server.enqueue(f.text("foreground answer"));
    const frames = await promptAndSettle(s.nova, "quick question");
    expect(frames.filter((fr) => fr.type === "permission_request")).toEqual([]);
    expect(frames.find((fr) => fr.type === "agent_end")!.messages.map((m: any) => m.role)).toEqual(["user", "assistant"]);

    const beforeBack = s.nova.frames.length;
    const back = await s.nova.request({ type: "switch_session", sessionId: first.sessionId });
    expect(s.nova.frames.slice(beforeBack).map((fr) => fr.type)).toEqual(["agent_start", "response"]);
    expect(back.data.background).toMatchObject({ sessionId: fresh.sessionId, streaming: false });
    expect((await s.nova.request({ type: "get_state" })).data).toMatchObject({ sessionId: first.sessionId, isStreaming: true });
    // its pending permission request is answered here, now that it is attached again
    s.server.enqueue(f.text("long task done"));
    const from = s.nova.frames.length;
    await s.nova.request({ type: "permission_response", requestId: held.requestId, approved: true });
    await s.nova.waitFor((fr) => fr.type === "agent_settled", from);
    expect(
      s.nova.frames
        .slice(from)
        .find((fr) => fr.type === "agent_end")!
        .messages.at(-1).content[0].text,
    ).toBe("long task done");
    // over the whole session, the host saw every agent_start matched by one agent_end
    const starts = s.nova.frames.filter((fr) => fr.type === "agent_start").length;
    expect(s.nova.frames.filter((fr) => fr.type === "agent_end").length).toBe(starts);
  });

  test("cancel_background_session stops it; an unknown id fails", async () => {
    s = await scenario();
    await holdRun("doomed");
    const detached = await s.nova.request({ type: "new_session", background: true });
    const id = detached.data.background.sessionId;
    expect((await s.nova.request({ type: "cancel_background_session", sessionId: id })).success).toBe(true);
    expect((await s.nova.request({ type: "get_background_sessions" })).data.sessions).toEqual([]);
    const unknown = await s.nova.request({ type: "cancel_background_session", sessionId: id });
    expect(unknown.success).toBe(false);
  });

  test("new_session without background while streaming is rejected and nothing changes", async () => {
    s = await scenario();
    await holdRun("busy");
    const before = (await s.nova.request({ type: "get_state" })).data;
    const r = await s.nova.request({ type: "new_session" });
    expect(r.success).toBe(false);
    expect((await s.nova.request({ type: "get_state" })).data.sessionId).toBe(before.sessionId);
    expect((await s.nova.request({ type: "new_session", background: true, parentSession: "/x" })).success).toBe(false);
  });

  test("the background limit displaces the oldest conversation", async () => {
    s = await scenario({ extra: { session: { backgroundLimit: 1 } } });
    await holdRun("one");
    const a = (await s.nova.request({ type: "new_session", background: true })).data.background.sessionId;
    await holdRun("two");
    const second = await s.nova.request({ type: "new_session", background: true });
    expect(second.data.background.displaced).toEqual([a]);
    const ids = (await s.nova.request({ type: "get_background_sessions" })).data.sessions.map((x: any) => x.sessionId);
    expect(ids).toEqual([second.data.background.sessionId]);
  });
});

describe("handoff", () => {
  test("summarises the session into a new one that starts from the summary", async () => {
    s = await scenario({ args: ["--session-dir", tempDir("nova-handoff-")] });
    s.server.enqueue(f.text("we fixed the parser"), f.text("HANDOFF SUMMARY"), f.text("continuing"));
    await promptAndSettle(s.nova, "fix the parser");
    const before = (await s.nova.request({ type: "get_state" })).data;
    const r = await s.nova.request({ type: "handoff", customInstructions: "mention the parser" });
    expect(r.success).toBe(true);
    expect(r.data).toMatchObject({ summary: "HANDOFF SUMMARY", parentSession: before.sessionFile });
    expect(r.data.sessionId).not.toBe(before.sessionId);
    expect(JSON.stringify(s.server.requests[1]!.body)).toContain("mention the parser");
    const messages = (await s.nova.request({ type: "get_messages" })).data.messages;
    expect(messages).toEqual([expect.objectContaining({ role: "branchSummary", summary: "HANDOFF SUMMARY", fromId: before.sessionId })]);
    await promptAndSettle(s.nova, "go on");
    expect(JSON.stringify(s.server.requests[2]!.body)).toContain("HANDOFF SUMMARY");
  });
});
