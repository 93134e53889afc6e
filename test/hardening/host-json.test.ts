/**
 * Host-provided JSON is bounded: frames nesting deeper than 64 levels and
 * oversized tool schemas are refused with a clear error, a refused
 * host_tool_result still ends its call (tool_execution_end), and after
 * SIGTERM the background notices come before agent_settled and say aborted.
 */
import { afterEach, expect, test } from "bun:test";
import { promptAndSettle, scenario, cutAfter, type Scenario } from "../support/scenario.ts";
import { fixtures } from "../support/fixtures/index.ts";

const f = fixtures.openaiChat;
let s: Scenario | undefined;
afterEach(async () => {
  await s?.close();
  s = undefined;
});

/** `{"a":{"a":…}}` `depth` levels deep, as JSON text (JSON.stringify would overflow first). */
function deepJson(depth: number): string {
  return `${'{"a":'.repeat(depth - 1)}{}${"}".repeat(depth - 1)}`;
}

const tool = (parameters: string) => `{"id":"t","type":"set_host_tools","tools":[{"name":"deep","description":"d","parameters":${parameters}}]}`;

test("a 100 000-deep host tool schema is refused, and get_state and prompts go on working", async () => {
  s = await scenario();
  const waiting = s.nova.waitFor((fr) => fr.type === "response" && fr.id === "t");
  s.nova.send(tool(deepJson(100_000)));
  expect(await waiting).toMatchObject({ success: false, command: "set_host_tools", error: "the set_host_tools command nests deeper than 64 levels; refused" });
  expect((await s.nova.request({ type: "get_state" })).success).toBe(true);
  s.server.enqueue(f.text("fine"));
  const frames = await promptAndSettle(s.nova, "hi");
  expect(frames.find((fr) => fr.type === "agent_end")!.messages.at(-1).content[0].text).toBe("fine");
});

test("a schema within the depth limit but over 64 KiB is refused, naming the field", async () => {
  s = await scenario();
  const big = JSON.stringify({ type: "object", description: "x".repeat(70_000) });
  const waiting = s.nova.waitFor((fr) => fr.type === "response" && fr.id === "t");
  s.nova.send(tool(big));
  expect((await waiting).error).toMatch(/^tools\[0\]\.parameters is \d+ bytes of JSON, more than the 65536 allowed$/);
  const ok = await s.nova.request({ type: "set_host_tools", tools: [{ name: "deep", description: "d", parameters: { type: "object", properties: {} } }] });
  expect(ok.success).toBe(true);
});

test("a 100 000-deep host_tool_result fails the call with a tool error; the run still ends the call and settles", async () => {
  s = await scenario();
  await s.nova.request({ type: "set_host_tools", tools: [{ name: "echo_host", description: "e", parameters: { type: "object", properties: {} } }] });
  s.server.enqueue(f.toolCalls([{ id: "c1", name: "echo_host", args: {} }]), f.text("done"));
  const from = s.nova.frames.length;
  await s.nova.request({ type: "prompt", message: "go" });
  const call = await s.nova.waitFor((fr) => fr.type === "host_tool_call", from);
  s.nova.send(`{"type":"host_tool_result","id":"${call.id}","result":{"content":[],"details":${deepJson(100_000)}}}`);
  await s.nova.waitFor((fr) => fr.type === "agent_settled", from);
  const end = s.nova.frames.slice(from).find((fr) => fr.type === "tool_execution_end")!;
  expect(end.isError).toBe(true);
  expect(end.result.content[0].text).toBe("the host's result was refused: host_tool_result nests deeper than 64 levels; refused");
  expect((await s.nova.request({ type: "get_state" })).success).toBe(true);
});

test("frames up to 64 levels deep are fine", async () => {
  s = await scenario();
  const waiting = s.nova.waitFor((fr) => fr.type === "response" && fr.id === "t");
  // the frame itself, tools, the tool, parameters: 4 levels around the schema
  s.nova.send(tool(deepJson(60)));
  expect((await waiting).success).toBe(true);
});

test("after SIGTERM the background conversation's notice comes before agent_settled and says it was aborted", async () => {
  s = await scenario();
  s.server.enqueue(cutAfter(f.text("Xyzzy never finishes"), "Xyzz", "stall"), cutAfter(f.text("Plugh never finishes"), "Plug", "stall"));
  await s.nova.request({ type: "prompt", message: "long one" });
  await s.server.waitForRequests(1);
  const detached = await s.nova.request({ type: "new_session", background: true });
  const from = s.nova.frames.length;
  await s.nova.request({ type: "prompt", message: "another" });
  await s.server.waitForRequests(2);
  s.nova.proc.kill("SIGTERM");
  expect(await s.nova.exited).toBe(0);
  const frames = s.nova.frames.slice(from);
  const notice = frames.findIndex((fr) => fr.type === "extension_ui_request" && fr.method === "notify");
  expect(frames[notice]?.message).toBe(`Background conversation ${detached.data.background.sessionId} was aborted.`);
  expect(notice).toBeLessThan(frames.findLastIndex((fr) => fr.type === "agent_settled"));
  expect(frames.at(-1)!.type).toBe("agent_settled");
});
