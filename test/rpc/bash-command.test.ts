/** The user's own `bash` command: concurrent dispatch, abort_bash, output in the context. */
import { afterEach, expect, test } from "bun:test";
import { promptAndSettle, scenario, type Scenario } from "../support/scenario.ts";
import { fixtures } from "../support/fixtures/index.ts";

let s: Scenario | undefined;
afterEach(async () => {
  await s?.close();
  s = undefined;
});

test("bash runs in the session cwd, answers with Pi's shape and reaches the model on the next prompt", async () => {
  s = await scenario();
  const r = await s.nova.request({ type: "bash", command: "pwd; echo out-$((6*7)); exit 3" });
  expect(r.success).toBe(true);
  expect(r.data).toMatchObject({ exitCode: 3, cancelled: false, truncated: false });
  expect(r.data.output).toContain("out-42");
  expect(r.data.output).toContain(s.cwd);
  s.server.enqueue(fixtures.openaiChat.text("seen"));
  await promptAndSettle(s.nova, "what did I run?");
  expect(JSON.stringify(s.server.requests[0].body)).toContain("out-42");
  const messages = (await s.nova.request({ type: "get_messages" })).data.messages;
  expect(messages[0]).toMatchObject({ role: "bashExecution", exitCode: 3 });
});

test("abort_bash is answered while bash runs and stops it", async () => {
  s = await scenario();
  const running = s.nova.request({ type: "bash", command: "sleep 30" });
  const state = await s.nova.request({ type: "get_state" });
  expect(state.success).toBe(true);
  const started = Date.now();
  expect((await s.nova.request({ type: "abort_bash" })).success).toBe(true);
  const r = await running;
  expect(r.data.cancelled).toBe(true);
  expect(Date.now() - started).toBeLessThan(5000);
});

test("excludeFromContext keeps the output out of the model's context but in the session, marked", async () => {
  s = await scenario();
  await s.nova.request({ type: "bash", command: "echo private", excludeFromContext: true });
  expect((await s.nova.request({ type: "get_messages" })).data.messages).toMatchObject([{ role: "bashExecution", command: "echo private", excludeFromContext: true }]);
  const { entries } = (await s.nova.request({ type: "get_entries" })).data;
  expect(entries).toMatchObject([{ type: "message", message: { role: "bashExecution", output: "private\n", excludeFromContext: true } }]);
  s.server.enqueue(fixtures.openaiChat.text("seen"));
  await promptAndSettle(s.nova, "anything?");
  expect(JSON.stringify(s.server.requests[0].body)).not.toContain("private");
  expect(s.server.requests[0].body.messages.filter((m: any) => m.role === "user")).toHaveLength(1);
});

test("bash_execution_update streams the output with the command's id while it runs", async () => {
  s = await scenario();
  const r = await s.nova.request({ id: "sh-1", type: "bash", command: "echo first; sleep 0.2; echo second" });
  expect(r.data.output).toBe("first\nsecond\n");
  const updates = s.nova.frames.filter((f) => f.type === "bash_execution_update");
  expect(updates.length).toBeGreaterThanOrEqual(2);
  expect(updates.every((u) => u.id === "sh-1")).toBe(true);
  expect(updates.map((u) => u.delta).join("")).toBe("first\nsecond\n");
  // every update precedes the response
  expect(s.nova.frames.indexOf(updates.at(-1)!)).toBeLessThan(s.nova.frames.findIndex((f) => f.type === "response" && f.id === "sh-1"));
});
