/** set_tools and get_state.tools through the real process: built-in and host tools alike, the flags' start set, unknown names. */
import { afterEach, expect, test } from "bun:test";
import { promptAndSettle, scenario, type Scenario } from "../support/scenario.ts";
import { fixtures } from "../support/fixtures/index.ts";

const f = fixtures.openaiChat;
let s: Scenario | undefined;
afterEach(async () => {
  await s?.close();
  s = undefined;
});

const offered = (body: { tools?: { function: { name: string } }[] }) => (body.tools ?? []).map((t) => t.function.name);

test("disabled tools leave the state and the next request; enabled ones come back; host tools alike", async () => {
  s = await scenario();
  const start = (await s.nova.request({ type: "get_state" })).data.tools;
  expect(start).toEqual(expect.arrayContaining(["read", "write", "edit", "bash", "grep", "find", "ls"]));
  await s.nova.request({ type: "set_host_tools", tools: [{ name: "deploy", description: "deploy", parameters: { type: "object" } }] });
  const r = await s.nova.request({ type: "set_tools", disabled: ["bash", "deploy"] });
  expect(r.success).toBe(true);
  expect(r.data.tools).not.toContain("bash");
  expect(r.data.tools).not.toContain("deploy");
  expect((await s.nova.request({ type: "get_state" })).data.tools).toEqual(r.data.tools);
  s.server.enqueue(f.text("ok"));
  await promptAndSettle(s.nova, "hi");
  const names = offered(s.server.requests.at(-1)!.body);
  expect(names).toContain("read");
  expect(names).not.toContain("bash");
  expect(names).not.toContain("deploy");
  const back = await s.nova.request({ type: "set_tools", enabled: ["bash"] });
  expect(back.data.tools).toContain("bash");
  expect(back.data.tools).not.toContain("deploy");
  // a model call to a disabled tool is not found
  s.server.enqueue(f.toolCalls([{ id: "d1", name: "deploy", args: {} }]), f.text("done"));
  const frames = await promptAndSettle(s.nova, "deploy");
  expect(frames.find((fr) => fr.type === "tool_execution_end")!.result.content[0].text).toContain('Tool "deploy" not found');
});

test("the command-line flags set the start set; set_tools can turn on a built-in they left out", async () => {
  s = await scenario({ args: ["--no-session", "--tools", "read,ls"] });
  expect((await s.nova.request({ type: "get_state" })).data.tools).toEqual(["read", "ls"]);
  const r = await s.nova.request({ type: "set_tools", enabled: ["write"] });
  expect(r.data.tools).toEqual(["read", "write", "ls"]);
});

test("an unknown name, or a name in both lists, is an error naming it; nothing changes", async () => {
  s = await scenario();
  const before = (await s.nova.request({ type: "get_state" })).data.tools;
  const bad = await s.nova.request({ type: "set_tools", disabled: ["read", "frobnicate"] });
  expect(bad.success).toBe(false);
  expect(bad.error).toContain('disabled[1]: "frobnicate" is not a tool');
  const both = await s.nova.request({ type: "set_tools", enabled: ["read"], disabled: ["read"] });
  expect(both.success).toBe(false);
  expect(both.error).toContain('"read" is in both');
  const wrong = await s.nova.request({ type: "set_tools", enabled: "read" });
  expect(wrong.success).toBe(false);
  expect(wrong.error).toContain("enabled");
  expect((await s.nova.request({ type: "get_state" })).data.tools).toEqual(before);
});
