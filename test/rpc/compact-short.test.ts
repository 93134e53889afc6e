/** A manual compact of a short conversation compacts it, as Pi does; only an empty one is refused (through the real process). */
import { expect, test } from "bun:test";
import { promptAndSettle, scenarios } from "../support/scenario.ts";
import { fixtures } from "../support/fixtures/index.ts";

const setup = scenarios();
const f = fixtures.openaiChat;

test("everything before the last exchange is summarised; the last exchange stays verbatim", async () => {
  const s = await setup();
  s.server.enqueue(f.text("first answer"), f.text("second answer"), f.text("SHORT SUMMARY"));
  await promptAndSettle(s.nova, "first question");
  await promptAndSettle(s.nova, "second question");
  const r = await s.nova.request({ type: "compact" });
  expect(r.success).toBe(true);
  expect(r.data.summary).toBe("SHORT SUMMARY");
  const summarised = JSON.stringify(s.server.requests[2]!.body);
  expect(summarised).toContain("first question");
  expect(summarised).not.toContain("second question");
  const { messages } = (await s.nova.request({ type: "get_messages" })).data;
  expect(messages.map((m: any) => m.role)).toEqual(["compactionSummary", "user", "assistant"]);
  expect(messages[1].content).toContain("second question");
});

test("a single exchange is summarised whole; an empty conversation is refused", async () => {
  const s = await setup();
  const empty = await s.nova.request({ type: "compact" });
  expect(empty.success).toBe(false);
  expect(empty.error).toContain("Nothing to compact: the conversation is empty");
  s.server.enqueue(f.text("only answer"), f.text("ONE SUMMARY"));
  await promptAndSettle(s.nova, "only question");
  const r = await s.nova.request({ type: "compact" });
  expect(r.success).toBe(true);
  expect(JSON.stringify(s.server.requests[1]!.body)).toContain("only question");
  const { messages } = (await s.nova.request({ type: "get_messages" })).data;
  expect(messages).toEqual([expect.objectContaining({ role: "compactionSummary", summary: "ONE SUMMARY" })]);
});
