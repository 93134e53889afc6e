/**
 * Pi 1.6's additions to the RPC surface, through the process: dispositions,
 * get_entries/get_tree, thinking levels a model declares, and the events
 * Pi 1.6 hosts read.
 */
import { afterEach, expect, test } from "bun:test";
import { cutAfter, promptAndSettle, scenario, type Scenario } from "../support/scenario.ts";

let s: Scenario | undefined;
afterEach(async () => {
  await s?.close();
  s = undefined;
});

test("prompt, steer, follow_up and abort_and_prompt answer with a disposition", async () => {
  s = await scenario();
  s.server.enqueue(cutAfter(s.f.text("Xyzzy never finishes"), "Xyzz", "stall"), cutAfter(s.f.text("Xyzzy again"), "Xyzz", "stall"), s.f.text("after"));
  expect((await s.nova.request({ type: "prompt", message: "go" })).data).toEqual({ agentInvoked: true, disposition: "started" });
  await s.nova.waitFor((f) => f.type === "message_update");
  expect((await s.nova.request({ type: "steer", message: "s" })).data).toEqual({ agentInvoked: true, disposition: "queued" });
  expect((await s.nova.request({ type: "follow_up", message: "f" })).data).toEqual({ agentInvoked: true, disposition: "queued" });
  expect((await s.nova.request({ type: "prompt", message: "p", streamingBehavior: "followUp" })).data).toEqual({ agentInvoked: true, disposition: "queued" });
  const from = s.nova.frames.length;
  expect((await s.nova.request({ type: "abort_and_prompt", message: "instead" })).data).toEqual({ agentInvoked: true, disposition: "started" });
  // the aborted run settles as aborted before the new one starts
  expect(s.nova.frames.slice(from).find((f) => f.type === "agent_settled")).toEqual({ type: "agent_settled", aborted: true });
  await s.nova.request({ type: "abort" });
  expect((await s.nova.request({ type: "steer", message: "idle steer" })).data).toEqual({ agentInvoked: true, disposition: "started" });
  await s.nova.waitFor((f) => f.type === "agent_settled" && f.aborted === false, from);
});

test("get_entries: append order, no header, since an id; an unknown id names it; get_tree holds every entry once", async () => {
  s = await scenario();
  s.server.enqueue(s.f.text("one"), s.f.text("two"));
  await promptAndSettle(s.nova, "first");
  await promptAndSettle(s.nova, "second");
  const all = (await s.nova.request({ type: "get_entries" })).data;
  expect(all.entries.map((e: any) => e.message?.role ?? e.type)).toEqual(["user", "assistant", "user", "assistant"]);
  expect(all.leafId).toBe(all.entries.at(-1).id);
  expect((await s.nova.request({ type: "get_entries", since: all.entries[1].id })).data.entries).toEqual(all.entries.slice(2));
  expect((await s.nova.request({ type: "get_entries", since: all.entries.at(-1).id })).data.entries).toEqual([]);
  const unknown = await s.nova.request({ type: "get_entries", since: "nope" });
  expect(unknown).toMatchObject({ success: false, error: expect.stringContaining('"nope"') });
  const bad = await s.nova.request({ type: "get_entries", since: 7 });
  expect(bad).toMatchObject({ success: false, error: expect.stringContaining("since") });
  // a branch: back to the first answer, then on
  await s.nova.request({ type: "fork", entryId: all.entries[2].id });
  s.server.enqueue(s.f.text("two-b"));
  await promptAndSettle(s.nova, "second-b");
  const { tree, leafId } = (await s.nova.request({ type: "get_tree" })).data;
  expect(tree).toHaveLength(1);
  const root = tree[0];
  expect(Object.keys(root).sort()).toEqual(["children", "entry"]);
  expect(root.entry.id).toBe(all.entries[0].id);
  const fork = root.children[0];
  expect(fork.children.map((c: any) => c.entry.message.content)).toEqual(["second", "second-b"]);
  expect(leafId).toBe(fork.children[1].children[0].entry.id);
});

test("xhigh and max only for a model that declares them; high cycles to off otherwise; thinking_level_changed", async () => {
  s = await scenario({ reasoning: true, model: { thinkingLevels: ["low", "high", "xhigh", "max"] } });
  expect((await s.nova.request({ type: "get_available_thinking_levels" })).data.levels).toEqual(["off", "low", "high", "xhigh", "max"]);
  const from = s.nova.frames.length;
  await s.nova.request({ type: "set_thinking_level", level: "max" });
  expect(s.nova.frames.slice(from).find((f) => f.type === "thinking_level_changed")).toEqual({ type: "thinking_level_changed", level: "max" });
  expect((await s.nova.request({ type: "cycle_thinking_level" })).data).toEqual({ level: "off" });
  // an undeclared level becomes the nearest supported one above it
  await s.nova.request({ type: "set_thinking_level", level: "medium" });
  expect((await s.nova.request({ type: "get_state" })).data.thinkingLevel).toBe("high");

  await s.nova.request({ type: "set_model", provider: "test", modelId: "m2" });
  // m2 is declared without reasoning: only off
  expect((await s.nova.request({ type: "get_available_thinking_levels" })).data.levels).toEqual(["off"]);
  expect((await s.nova.request({ type: "cycle_thinking_level" })).data).toBeNull();
});

test("get_session_stats reports contextUsage; message_update carries the usage so far; set_session_name announces the name", async () => {
  s = await scenario();
  s.server.enqueue(s.f.text("Hello there"));
  const frames = await promptAndSettle(s.nova, "hi");
  const updates = frames.filter((f) => f.type === "message_update");
  expect(updates.length).toBeGreaterThan(0);
  expect(updates.at(-1)!.usage).toMatchObject({ input: expect.any(Number), output: expect.any(Number), totalTokens: expect.any(Number) });
  expect(updates[0]!.message).toEqual({ role: "assistant", provider: "test", model: "m1" });
  expect(frames.find((f) => f.type === "agent_end")!.willRetry).toBe(false);
  const stats = (await s.nova.request({ type: "get_session_stats" })).data;
  expect(stats.contextUsage).toEqual({ tokens: expect.any(Number), contextWindow: 100000, percent: expect.any(Number) });
  expect(stats.contextUsage.tokens).toBeGreaterThan(0);
  const from = s.nova.frames.length;
  await s.nova.request({ type: "set_session_name", name: "  named  " });
  expect(s.nova.frames.slice(from).find((f) => f.type === "session_info_changed")).toEqual({ type: "session_info_changed", name: "named" });
});
