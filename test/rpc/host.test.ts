/** Host integration through the real process: host tools, extension UI, rpc-ui, todos, sub-agents, login. */
import { afterEach, describe, expect, test } from "bun:test";
import { statSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { promptAndSettle, scenario, type Scenario } from "../support/scenario.ts";
import { fixtures } from "../support/fixtures/index.ts";
import type { Frame } from "../support/nova.ts";

const f = fixtures.openaiChat;
let s: Scenario | undefined;
afterEach(async () => {
  await s?.close();
  s = undefined;
});

const echoTool = {
  name: "echo_host",
  label: "Echo Host",
  description: "Echo a value from the embedding host",
  parameters: { type: "object", properties: { message: { type: "string" } }, required: ["message"], additionalProperties: false },
};

async function startPrompt(message = "go") {
  const from = s!.nova.frames.length;
  const r = await s!.nova.request({ type: "prompt", message });
  expect(r.success).toBe(true);
  return from;
}
const settle = (from: number) => s!.nova.waitFor((fr) => fr.type === "agent_settled", from);
const toolEnd = (from: number) => s!.nova.frames.slice(from).find((fr) => fr.type === "tool_execution_end")!;

describe("host tools", () => {
  test("offered to the model, called, streamed and answered", async () => {
    s = await scenario();
    const set = await s.nova.request({ type: "set_host_tools", tools: [echoTool] });
    expect(set.data).toEqual({ toolNames: ["echo_host"] });
    const state = await s.nova.request({ type: "get_state" });
    expect(state.data.dumpTools.map((t: any) => t.name)).toContain("echo_host");
    s.server.enqueue(f.toolCalls([{ id: "call_9", name: "echo_host", args: { message: "hi" } }]), f.text("host said done"));
    const from = await startPrompt();
    const call = await s.nova.waitFor((fr) => fr.type === "host_tool_call", from);
    expect(call).toMatchObject({ toolCallId: "call_9", toolName: "echo_host", arguments: { message: "hi" } });
    expect(JSON.stringify(s.server.requests[0]!.body)).toContain("echo_host");
    s.nova.send({ type: "host_tool_update", id: call.id, partialResult: { content: [{ type: "text", text: "working" }] } });
    const update = await s.nova.waitFor((fr) => fr.type === "tool_execution_update", from);
    expect(update.partialResult.content).toEqual([{ type: "text", text: "working" }]);
    s.nova.send({ type: "host_tool_result", id: call.id, result: { content: [{ type: "text", text: "done: hi" }] } });
    await settle(from);
    expect(toolEnd(from)).toMatchObject({ isError: false, result: { content: [{ type: "text", text: "done: hi" }] } });
  });

  test("isError on the result makes a tool error", async () => {
    s = await scenario();
    await s.nova.request({ type: "set_host_tools", tools: [echoTool] });
    s.server.enqueue(f.toolCalls([{ id: "c1", name: "echo_host", args: { message: "x" } }]), f.text("ok"));
    const from = await startPrompt();
    const call = await s.nova.waitFor((fr) => fr.type === "host_tool_call", from);
    s.nova.send({ type: "host_tool_result", id: call.id, isError: true, result: { content: [{ type: "text", text: "host refused" }] } });
    await settle(from);
    expect(toolEnd(from)).toMatchObject({ isError: true, result: { content: [{ type: "text", text: "host refused" }] } });
  });

  test("abort sends host_tool_cancel for the pending call", async () => {
    s = await scenario();
    await s.nova.request({ type: "set_host_tools", tools: [echoTool] });
    s.server.enqueue(f.toolCalls([{ id: "c1", name: "echo_host", args: { message: "x" } }]));
    const from = await startPrompt();
    const call = await s.nova.waitFor((fr) => fr.type === "host_tool_call", from);
    await s.nova.request({ type: "abort" });
    const cancel = await s.nova.waitFor((fr) => fr.type === "host_tool_cancel", from);
    expect(cancel.targetId).toBe(call.id);
    await settle(from);
    expect(toolEnd(from).isError).toBe(true);
  });

  test("arguments that break the tool's schema never reach the host", async () => {
    s = await scenario();
    await s.nova.request({ type: "set_host_tools", tools: [echoTool] });
    s.server.enqueue(f.toolCalls([{ id: "c1", name: "echo_host", args: { message: 5 } }]), f.text("ok"));
    const from = await startPrompt();
    await settle(from);
    expect(s.nova.frames.slice(from).filter((fr) => fr.type === "host_tool_call")).toEqual([]);
    expect(toolEnd(from).isError).toBe(true);
    expect(toolEnd(from).result.content[0].text).toContain("message");
  });

  test("re-sending replaces the set; built-in names are refused; a result with an unknown id gets no answer", async () => {
    s = await scenario();
    await s.nova.request({ type: "set_host_tools", tools: [echoTool] });
    await s.nova.request({ type: "set_host_tools", tools: [{ ...echoTool, name: "other_tool" }] });
    const names = (await s.nova.request({ type: "get_state" })).data.dumpTools.map((t: any) => t.name);
    expect(names).toContain("other_tool");
    expect(names).not.toContain("echo_host");
    const clash = await s.nova.request({ type: "set_host_tools", tools: [{ ...echoTool, name: "read" }] });
    expect(clash.success).toBe(false);
    expect(clash.error).toContain('"read" is a built-in tool');
    const before = s.nova.frames.length;
    s.nova.send({ type: "host_tool_result", id: "host_404", result: { content: [] } });
    const next = await s.nova.request({ type: "get_last_assistant_text" });
    expect(s.nova.frames.slice(before)).toEqual([next]);
  });

  test("stdin closing while a call is pending fails it; the run ends and nova exits 0", async () => {
    s = await scenario();
    await s.nova.request({ type: "set_host_tools", tools: [echoTool] });
    s.server.enqueue(f.toolCalls([{ id: "c1", name: "echo_host", args: { message: "x" } }]), f.text("ok"));
    const from = await startPrompt();
    await s.nova.waitFor((fr) => fr.type === "host_tool_call", from);
    s.nova.closeStdin();
    expect(await s.nova.exited).toBe(0);
    expect(toolEnd(from).isError).toBe(true);
    expect(s.nova.frames.slice(from).map((fr) => fr.type)).toContain("agent_settled");
  });
});

describe("rpc-ui and the ask tool", () => {
  test("ask exists only in rpc-ui", async () => {
    s = await scenario();
    expect((await s.nova.request({ type: "get_state" })).data.dumpTools.map((t: any) => t.name)).not.toContain("ask");
    await s.close();
    s = await scenario({ args: ["--no-session", "--mode", "rpc-ui"] });
    expect((await s.nova.request({ type: "get_state" })).data.dumpTools.map((t: any) => t.name)).toContain("ask");
  });

  test.each([
    ["select", { question: "Which?", options: ["left", "right"] }, { value: "right" }, "The user answered: right"],
    ["input", { question: "Name?" }, { value: "Ada" }, "The user answered: Ada"],
    ["editor", { question: "Describe it", multiline: true }, { value: "long\ntext" }, "The user answered: long\ntext"],
    ["confirm", { question: "Proceed?", confirm: true }, { confirmed: true }, "The user answered: yes"],
    ["select", { question: "Which?", options: ["a", "b"] }, { cancelled: true }, "The user did not answer."],
  ])("ask as %s", async (method, args, reply, answer) => {
    s = await scenario({ args: ["--no-session", "--mode", "rpc-ui"] });
    s.server.enqueue(f.toolCalls([{ id: "a1", name: "ask", args }]), f.text("thanks"));
    const from = await startPrompt();
    const request = await s.nova.waitFor((fr) => fr.type === "extension_ui_request", from);
    expect(request.method).toBe(method);
    s.nova.send({ type: "extension_ui_response", id: request.id, ...reply });
    await settle(from);
    expect(toolEnd(from).result.content[0].text).toBe(answer);
  });

  test("a dialog that times out resolves to no answer and tells the host to close it", async () => {
    s = await scenario({ args: ["--no-session", "--mode", "rpc-ui"] });
    s.server.enqueue(f.toolCalls([{ id: "a1", name: "ask", args: { question: "Quick?", timeoutSeconds: 0.2 } }]), f.text("ok"));
    const from = await startPrompt();
    const request = await s.nova.waitFor((fr) => fr.type === "extension_ui_request" && fr.method === "input", from);
    expect(request.timeout).toBe(200);
    const cancel = await s.nova.waitFor((fr) => fr.type === "extension_ui_request" && fr.method === "cancel", from);
    expect(cancel.targetId).toBe(request.id);
    await settle(from);
    expect(toolEnd(from).result.content[0].text).toBe("The user did not answer.");
    // a late answer for the closed dialog is ignored
    const before = s.nova.frames.length;
    s.nova.send({ type: "extension_ui_response", id: request.id, value: "late" });
    const next = await s.nova.request({ type: "get_last_assistant_text" });
    expect(s.nova.frames.slice(before)).toEqual([next]);
  });
});

describe("extension UI notices", () => {
  const ui = (from: number, method: string) => s!.nova.frames.slice(from).filter((fr) => fr.type === "extension_ui_request" && fr.method === method);

  test("setStatus follows a retry", async () => {
    s = await scenario();
    s.server.enqueue(fixtures.httpError(429, { error: { message: "busy" } }, { "retry-after": "0" }), f.text("ok"));
    const frames = await promptAndSettle(s.nova, "hi");
    const statuses = frames.filter((fr) => fr.type === "extension_ui_request" && fr.method === "setStatus");
    expect(statuses.map((st) => [st.statusKey, typeof st.statusText])).toEqual([
      ["retry", "string"],
      ["retry", "undefined"],
    ]);
    expect(statuses[0]!.statusText).toContain("busy");
  });

  test("setWidget shows the todo list; setTitle only when NOVA_RPC_EMIT_TITLE=1; set_editor_text on a fork", async () => {
    s = await scenario();
    const from = s.nova.frames.length;
    await s.nova.request({ type: "set_todos", phases: [{ name: "Plan", tasks: [{ content: "Map it", status: "in_progress" }] }] });
    expect(ui(from, "setWidget")[0]).toMatchObject({ widgetKey: "todos", widgetLines: ["Plan", "  [~] Map it"] });
    await s.nova.request({ type: "set_session_name", name: "quiet" });
    expect(ui(from, "setTitle")).toEqual([]);
    s.server.enqueue(f.text("A1"));
    await promptAndSettle(s.nova, "first words");
    const entry = (await s.nova.request({ type: "get_fork_messages" })).data.messages[0].entryId;
    await s.nova.request({ type: "fork", entryId: entry });
    expect(ui(from, "set_editor_text")[0]).toMatchObject({ text: "first words" });
    await s.close();
    s = await scenario({ env: { NOVA_RPC_EMIT_TITLE: "1" } });
    await s.nova.request({ type: "set_session_name", name: "loud" });
    expect(ui(0, "setTitle")[0]).toMatchObject({ title: "loud" });
  });

  test("notify when a background conversation finishes", async () => {
    s = await scenario();
    s.server.enqueue(f.toolCalls([{ id: "b1", name: "bash", args: { command: "sleep 0.3" } }]), f.text("background done"));
    const from = await startPrompt("slow work");
    await s.nova.waitFor((fr) => fr.type === "tool_execution_start", from);
    await s.nova.request({ type: "new_session", background: true });
    const notice = await s.nova.waitFor((fr) => fr.type === "extension_ui_request" && fr.method === "notify", from);
    expect(notice.message).toContain("finished");
    expect((await s.nova.request({ type: "get_background_sessions" })).data.sessions).toEqual([]);
  });
});

describe("todos", () => {
  test("set_todos normalises (no ids, unknown fields dropped) and get_state shows them", async () => {
    s = await scenario();
    const r = await s.nova.request({
      type: "set_todos",
      phases: [{ id: "phase-1", name: "Eval", color: "red", tasks: [{ id: "t1", content: "Map", status: "in_progress", extra: 1 }] }],
    });
    expect(r.data).toEqual({ phases: [{ name: "Eval", tasks: [{ content: "Map", status: "in_progress" }] }] });
    expect((await s.nova.request({ type: "get_state" })).data.todoPhases).toEqual(r.data.phases);
    const bad = await s.nova.request({ type: "set_todos", phases: [{ name: "x", tasks: [{ content: "y", status: "done" }] }] });
    expect(bad.error).toContain("phases[0].tasks[0].status");
  });

  test("the model's todo tool, a reminder while tasks are open, and the automatic clear when all are done", async () => {
    s = await scenario();
    const open = { phases: [{ name: "Work", tasks: [{ content: "step one", status: "in_progress" }] }] };
    const done = { phases: [{ name: "Work", tasks: [{ content: "step one", status: "completed" }] }] };
    s.server.enqueue(f.toolCalls([{ id: "t1", name: "todo", args: open }]), f.text("stopping early"), f.toolCalls([{ id: "t2", name: "todo", args: done }]), f.text("all done"));
    const frames = await promptAndSettle(s.nova, "do the work");
    const reminder = frames.find((fr) => fr.type === "todo_reminder")!;
    expect(reminder.todos).toEqual([{ content: "step one", status: "in_progress" }]);
    expect(JSON.stringify(s.server.requests[2]!.body)).toContain("still open");
    const clear = frames.find((fr) => fr.type === "todo_auto_clear")!;
    expect(clear.phases).toEqual(done.phases);
    expect(frames.findIndex((fr) => fr.type === "todo_auto_clear")).toBeGreaterThan(frames.findIndex((fr) => fr.type === "agent_end"));
    expect((await s.nova.request({ type: "get_state" })).data.todoPhases).toEqual([]);
    // each change the model made is a todos_changed, sent before its tool's end
    const changes = frames.filter((fr) => fr.type === "todos_changed");
    expect(changes.map((fr) => fr.phases)).toEqual([open.phases, done.phases]);
    const changeAt = (i: number) => frames.indexOf(changes[i]!);
    const endOf = (id: string) => frames.findIndex((fr) => fr.type === "tool_execution_end" && fr.toolCallId === id);
    expect([changeAt(0) < endOf("t1"), changeAt(1) < endOf("t2"), changeAt(1) > endOf("t1")]).toEqual([true, true, true]);
    // the host's own set_todos is answered, not echoed
    const before = s.nova.frames.length;
    await s.nova.request({ type: "set_todos", phases: open.phases });
    expect(s.nova.frames.slice(before).filter((fr) => fr.type === "todos_changed")).toEqual([]);
  });
});

describe("sub-agents", () => {
  test.each([
    ["off", [] as string[]],
    ["progress", ["subagent_lifecycle", "subagent_progress", "subagent_lifecycle"]],
    ["events", ["subagent_lifecycle", "subagent_event", "subagent_progress", "subagent_lifecycle"]],
  ])("a task runs a child agent; subscription %s", async (level, kinds) => {
    s = await scenario();
    await s.nova.request({ type: "set_subagent_subscription", level });
    s.server.enqueue(f.toolCalls([{ id: "k1", name: "task", args: { task: "Find the answer" } }]), f.text("The answer is 42."), f.text("Child said 42."));
    const frames = await promptAndSettle(s.nova, "delegate");
    expect(toolEnd(0).result.content[0].text).toBe("The answer is 42.");
    const seen = [...new Set(frames.filter((fr) => fr.type.startsWith("subagent_")).map((fr) => fr.type))];
    expect(seen.sort()).toEqual([...new Set(kinds)].sort());
    // the child got the task alone, with read-only tools
    const childRequest = s.server.requests[1]!.body;
    expect(JSON.stringify(childRequest.messages)).toContain("Find the answer");
    expect(JSON.stringify(childRequest.messages)).not.toContain("delegate");
    expect(childRequest.tools.map((t: any) => t.function.name).sort()).toEqual(["find", "grep", "ls", "read"]);
    const list = (await s.nova.request({ type: "get_subagents" })).data.subagents;
    expect(list[0]).toMatchObject({ task: "Find the answer", status: "completed", depth: 1 });
    const messages = await s.nova.request({ type: "get_subagent_messages", agentId: list[0].agentId });
    expect(messages.data.messages.map((m: any) => m.role)).toEqual(["user", "assistant"]);
  });
});

describe("login", () => {
  test("the API-key flow stores the key with mode 0600 and never shows it on stdout", async () => {
    s = await scenario();
    const providers = (await s.nova.request({ type: "get_login_providers" })).data.providers;
    expect(providers.map((p: any) => p.id)).toEqual(expect.arrayContaining(["anthropic", "openai"]));
    const key = "sk-ant-very-secret-login-key-0123";
    const from = s.nova.frames.length;
    const pending = s.nova.request({ type: "login", providerId: "anthropic" });
    const openUrl = await s.nova.waitFor((fr) => fr.type === "extension_ui_request" && fr.method === "open_url", from);
    expect(openUrl).toMatchObject({ credential: "api-key" });
    expect(openUrl.url).toStartWith("https://");
    const input = await s.nova.waitFor((fr) => fr.type === "extension_ui_request" && fr.method === "input", from);
    // the key prompt is marked secret, so the host masks what is typed
    expect(input.secret).toBe(true);
    s.nova.send({ type: "extension_ui_response", id: input.id, value: key });
    const r = await pending;
    expect(r).toMatchObject({ success: true, data: { providerId: "anthropic", loggedIn: true } });
    const auth = join(s.nova.home, "auth.json");
    expect(statSync(auth).mode & 0o777).toBe(0o600);
    expect(readFileSync(auth, "utf8")).toContain(key);
    const models = (await s.nova.request({ type: "get_available_models" })).data.models;
    expect(models.some((m: any) => m.provider === "anthropic")).toBe(true);
    await s.nova.request({ type: "get_state" });
    await s.nova.request({ type: "export_html", outputPath: join(s.cwd, "x.html") });
    expect(JSON.stringify(s.nova.frames)).not.toContain(key);
    expect(s.nova.stderr).not.toContain(key);
    expect(readFileSync(join(s.cwd, "x.html"), "utf8")).not.toContain(key);
  });

  test("an unknown provider and a cancelled input are clear errors", async () => {
    s = await scenario();
    const unknown = await s.nova.request({ type: "login", providerId: "nope" });
    expect(unknown.error).toContain('Unknown login provider "nope"');
    const from = s.nova.frames.length;
    const pending = s.nova.request({ type: "login", providerId: "openai" });
    const input = await s.nova.waitFor((fr: Frame) => fr.type === "extension_ui_request" && fr.method === "input", from);
    s.nova.send({ type: "extension_ui_response", id: input.id, cancelled: true });
    expect((await pending).error).toContain("cancelled");
  });
});
