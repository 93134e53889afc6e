/**
 * Steering and follow-up queues through the real process. A flagged bash
 * call holds the run at its permission request, so "while streaming" is a
 * state the test controls instead of a race.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { outline, scenario, type Scenario } from "../support/scenario.ts";
import { fixtures } from "../support/fixtures/index.ts";
import type { Frame } from "../support/nova.ts";

const f = fixtures.openaiChat;
let s: Scenario | undefined;
afterEach(async () => {
  await s?.close();
  s = undefined;
});

const gated = { id: "g1", name: "bash", args: { command: "rm -rf ./scratch" } };

/** Starts a prompt whose first tool call waits at a permission request; resolves with that request. */
async function startGated(calls: { id: string; name: string; args: Record<string, unknown> }[] = [gated], message = "go"): Promise<{ from: number; request: Frame }> {
  const from = s!.nova.frames.length;
  await s!.nova.request({ type: "prompt", message });
  s!.server.enqueue(f.toolCalls(calls));
  const request = await s!.nova.waitFor((fr) => fr.type === "permission_request", from);
  return { from, request };
}

function userTexts(frames: Frame[]): string[] {
  return frames
    .filter((fr) => fr.type === "message_end" && fr.message.role === "user")
    .map((fr) => (typeof fr.message.content === "string" ? fr.message.content : fr.message.content[0].text));
}

describe("while streaming", () => {
  test("prompt without streamingBehavior is rejected and nothing is queued", async () => {
    s = await scenario();
    const { request } = await startGated();
    const r = await s.nova.request({ type: "prompt", message: "interrupt!" });
    expect(r.success).toBe(false);
    expect(r.error).toContain("streamingBehavior");
    expect((await s.nova.request({ type: "get_state" })).data).toMatchObject({ isStreaming: true, pendingMessageCount: 0, queuedMessageCount: 0 });
    await s.nova.request({ type: "abort" });
    await s.nova.waitForType("agent_settled");
    expect(request.toolName).toBe("bash");
  });

  test("steer in interrupt mode immediate: the rest of the batch is skipped, the steer is delivered next", async () => {
    s = await scenario();
    writeFileSync(join(s.cwd, "a.txt"), "A");
    const { from, request } = await startGated([gated, { id: "r2", name: "read", args: { path: "a.txt" } }]);
    const q = await s.nova.request({ type: "prompt", message: "change of plan", streamingBehavior: "steer" });
    expect(q.success).toBe(true);
    expect(
      s.nova.frames
        .slice(from)
        .filter((fr) => fr.type === "queue_update")
        .at(-1),
    ).toMatchObject({ steering: ["change of plan"], pendingMessageCount: 1 });
    s.server.enqueue(f.text("ok, new plan"));
    await s.nova.request({ type: "permission_response", requestId: request.requestId, approved: true });
    await s.nova.waitFor((fr) => fr.type === "agent_settled", from);
    const frames = s.nova.frames.slice(from);
    const ends = frames.filter((fr) => fr.type === "tool_execution_end");
    expect(ends.map((e) => e.isError)).toEqual([false, true]);
    expect(ends[1]!.result.content[0].text).toBe("Skipped due to queued user message.");
    expect(userTexts(frames)).toEqual(["go", "change of plan"]);
    expect(JSON.stringify(s.server.requests.at(-1)!.body)).toContain("change of plan");
    expect(frames.filter((fr) => fr.type === "agent_end")).toHaveLength(1);
  });

  test("steer in interrupt mode wait: the batch finishes, the steer is delivered at the turn's end", async () => {
    s = await scenario();
    writeFileSync(join(s.cwd, "a.txt"), "A");
    await s.nova.request({ type: "set_interrupt_mode", mode: "wait" });
    const { from, request } = await startGated([gated, { id: "r2", name: "read", args: { path: "a.txt" } }]);
    await s.nova.request({ type: "steer", message: "after the batch" });
    s.server.enqueue(f.text("done"));
    await s.nova.request({ type: "permission_response", requestId: request.requestId, approved: true });
    await s.nova.waitFor((fr) => fr.type === "agent_settled", from);
    const frames = s.nova.frames.slice(from);
    expect(frames.filter((fr) => fr.type === "tool_execution_end").map((e) => e.isError)).toEqual([false, false]);
    const order = outline(frames);
    expect(order.indexOf("turn_end")).toBeLessThan(order.lastIndexOf("message_start:user"));
    expect(userTexts(frames)).toEqual(["go", "after the batch"]);
  });

  test("follow_up is delivered when the agent would stop, within the same run", async () => {
    s = await scenario();
    const { from, request } = await startGated();
    await s.nova.request({ type: "follow_up", message: "and then this" });
    s.server.enqueue(f.text("first done"), f.text("follow-up done"));
    await s.nova.request({ type: "permission_response", requestId: request.requestId, approved: true });
    await s.nova.waitFor((fr) => fr.type === "agent_settled", from);
    const frames = s.nova.frames.slice(from);
    expect(userTexts(frames)).toEqual(["go", "and then this"]);
    expect(frames.filter((fr) => fr.type === "agent_start")).toHaveLength(1);
    expect(frames.filter((fr) => fr.type === "agent_end")).toHaveLength(1);
    expect(frames.find((fr) => fr.type === "agent_end")!.messages.at(-1).content[0].text).toBe("follow-up done");
  });

  test.each([
    ["one-at-a-time", [["go"], ["one"], ["two"]]],
    ["all", [["go"], ["one", "two"]]],
  ])("follow-up mode %s", async (mode, turns) => {
    s = await scenario();
    await s.nova.request({ type: "set_follow_up_mode", mode });
    const { from, request } = await startGated();
    await s.nova.request({ type: "prompt", message: "one", streamingBehavior: "followUp" });
    await s.nova.request({ type: "prompt", message: "two", streamingBehavior: "followUp" });
    const counts = s.nova.frames
      .slice(from)
      .filter((fr) => fr.type === "queue_update")
      .map((fr) => fr.pendingMessageCount);
    expect(counts).toEqual([1, 2]);
    s.server.enqueue(f.text("a"), f.text("b"), f.text("c"));
    await s.nova.request({ type: "permission_response", requestId: request.requestId, approved: true });
    await s.nova.waitFor((fr) => fr.type === "agent_settled", from);
    const frames = s.nova.frames.slice(from);
    // user messages grouped by the turn that carried them
    const grouped: string[][] = [];
    for (const fr of frames) {
      if (fr.type === "turn_start") grouped.push([]);
      if (fr.type === "message_end" && fr.message.role === "user") grouped.at(-1)!.push(typeof fr.message.content === "string" ? fr.message.content : "");
    }
    expect(grouped.filter((g) => g.length > 0)).toEqual(turns);
    const last = frames.filter((fr) => fr.type === "queue_update").at(-1)!;
    expect(last.pendingMessageCount).toBe(0);
  });

  test("abort clears the queues", async () => {
    s = await scenario();
    const { from } = await startGated();
    await s.nova.request({ type: "follow_up", message: "later" });
    await s.nova.request({ type: "abort" });
    await s.nova.waitFor((fr) => fr.type === "agent_settled", from);
    expect((await s.nova.request({ type: "get_state" })).data).toMatchObject({ isStreaming: false, pendingMessageCount: 0 });
    expect(userTexts(s.nova.frames.slice(from))).toEqual(["go"]);
  });

  test("abort_and_prompt replaces the running turn with a new prompt", async () => {
    s = await scenario();
    const { from } = await startGated();
    s.server.enqueue(f.text("fresh answer"));
    expect((await s.nova.request({ type: "abort_and_prompt", message: "instead" })).success).toBe(true);
    await s.nova.waitFor((fr) => fr.type === "agent_end" && fr.messages.at(-1)?.content?.[0]?.text === "fresh answer", from);
    const frames = s.nova.frames.slice(from);
    expect(frames.filter((fr) => fr.type === "agent_start")).toHaveLength(2);
    expect(frames.filter((fr) => fr.type === "agent_end")).toHaveLength(2);
  });
});
