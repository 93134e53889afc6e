/** The permission gate through the real process: each mode × tool kind, the request's fields, remember, withdrawal, sub-agents (docs/permissions.md). */
import { afterEach, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, realpathSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parse, stringify } from "yaml";
import { scenario, testConfig, type Scenario } from "../support/scenario.ts";
import { fixtures } from "../support/fixtures/index.ts";
import { startNova, tempDir, type Frame } from "../support/nova.ts";
import { startProviderServer } from "../support/provider-server.ts";

const f = fixtures.openaiChat;
let s: Scenario | undefined;
afterEach(async () => {
  await s?.close();
  s = undefined;
});

/** The model makes one tool call; resolves with the first permission_request, or with the settled turn when none comes. */
async function call(name: string, args: Record<string, unknown>, id = "c1") {
  const from = s!.nova.frames.length;
  s!.server.enqueue(f.toolCalls([{ id, name, args }]), f.text("finished"));
  await s!.nova.request({ type: "prompt", message: "go" });
  const first = await s!.nova.waitFor((fr) => fr.type === "permission_request" || fr.type === "agent_settled", from);
  return { from, request: first.type === "permission_request" ? first : undefined };
}

async function settled(from: number) {
  await s!.nova.waitFor((fr) => fr.type === "agent_settled", from);
  return s!.nova.frames.slice(from).find((fr) => fr.type === "tool_execution_end")!;
}

async function setMode(mode: string) {
  const r = await s!.nova.request({ type: "set_permission_mode", mode });
  expect(r.success).toBe(true);
}

describe("write and edit", () => {
  test("a write outside the cwd asks with toolCallId, kind, path, reason, a unified diff and the options; approved, it is written", async () => {
    s = await scenario();
    const outside = realpathSync(tempDir("nova-outside-"));
    writeFileSync(join(outside, "notes.txt"), "one\ntwo\nthree\n");
    const { from, request } = await call("write", { path: join(outside, "notes.txt"), content: "one\nTWO\nthree\n" }, "w1");
    expect(request).toMatchObject({ toolCallId: "w1", toolName: "write", kind: "write", path: join(outside, "notes.txt"), options: ["allow_once", "allow_always", "reject"] });
    expect(request!.reason).toContain("outside the working folder");
    expect(request!.command).toContain("notes.txt");
    expect(request!.diff).toContain("-two");
    expect(request!.diff).toContain("+TWO");
    expect(request!.agentId).toBeUndefined();
    expect(readFileSync(join(outside, "notes.txt"), "utf8")).toBe("one\ntwo\nthree\n");
    await s.nova.request({ type: "permission_response", requestId: request!.requestId, approved: true });
    expect((await settled(from)).isError).toBe(false);
    expect(readFileSync(join(outside, "notes.txt"), "utf8")).toBe("one\nTWO\nthree\n");
  });

  test("a write inside the cwd runs unasked; one through a symlink that leads out asks", async () => {
    s = await scenario();
    const inside = await call("write", { path: "src/a.txt", content: "hi" });
    expect(inside.request).toBeUndefined();
    expect(readFileSync(join(s.cwd, "src/a.txt"), "utf8")).toBe("hi");
    const outside = realpathSync(tempDir("nova-outside-"));
    symlinkSync(outside, join(s.cwd, "link"));
    const { from, request } = await call("write", { path: "link/b.txt", content: "x" });
    expect(request!.path).toBe(join(outside, "b.txt"));
    await s.nova.request({ type: "permission_response", requestId: request!.requestId, approved: false });
    const end = await settled(from);
    expect(end.isError).toBe(true);
    expect(end.result.content[0].text).toContain("permission denied by the user");
    expect(existsSync(join(outside, "b.txt"))).toBe(false);
  });

  test("an edit of a protected file asks with the replacement as its diff; denied, nothing changes", async () => {
    s = await scenario();
    writeFileSync(join(s.cwd, ".env"), "KEY=old\nOTHER=1\n");
    const { from, request } = await call("edit", { path: ".env", oldText: "KEY=old", newText: "KEY=new" });
    expect(request).toMatchObject({ kind: "edit", toolName: "edit" });
    expect(request!.reason).toContain('protected pattern ".env*"');
    expect(request!.diff).toContain("-KEY=old");
    expect(request!.diff).toContain("+KEY=new");
    await s.nova.request({ type: "permission_response", requestId: request!.requestId, approved: false });
    expect((await settled(from)).isError).toBe(true);
    expect(readFileSync(join(s.cwd, ".env"), "utf8")).toBe("KEY=old\nOTHER=1\n");
  });

  test("a long diff is cut with a note", async () => {
    s = await scenario();
    const outside = realpathSync(tempDir("nova-outside-"));
    const before = Array.from({ length: 5000 }, (_, i) => `line ${i} ${"x".repeat(20)}`).join("\n");
    writeFileSync(join(outside, "big.txt"), before);
    const { request } = await call("write", { path: join(outside, "big.txt"), content: "short" });
    expect(request!.diff.length).toBeLessThan(before.length);
    expect(request!.diff).toMatch(/\[diff truncated: \d+ more lines not shown\]$/);
    await s.nova.request({ type: "permission_response", requestId: request!.requestId, approved: false });
  });
});

describe("modes", () => {
  test("acceptEdits: edits inside the cwd (protected ones too) and bash commands that only change its files run unasked; outside still asks", async () => {
    s = await scenario({ args: ["--no-session", "--permission-mode", "acceptEdits"] });
    expect((await s.nova.request({ type: "get_state" })).data.permissionMode).toBe("acceptEdits");
    writeFileSync(join(s.cwd, ".env"), "A=1\n");
    expect((await call("edit", { path: ".env", oldText: "A=1", newText: "A=2" })).request).toBeUndefined();
    expect(readFileSync(join(s.cwd, ".env"), "utf8")).toBe("A=2\n");
    mkdirSync(join(s.cwd, "build"));
    expect((await call("bash", { command: "rm -rf build" })).request).toBeUndefined();
    expect(existsSync(join(s.cwd, "build"))).toBe(false);
    const outside = realpathSync(tempDir("nova-outside-"));
    const { request } = await call("write", { path: join(outside, "x.txt"), content: "x" });
    expect(request?.kind).toBe("write");
    await s.nova.request({ type: "permission_response", requestId: request!.requestId, approved: false });
  });

  test("plan: write, edit and mutating bash get a tool error, read-only bash runs, the system prompt says so, and the change is announced", async () => {
    s = await scenario();
    const from = s.nova.frames.length;
    await setMode("plan");
    expect(s.nova.frames.slice(from).find((fr) => fr.type === "permission_mode_changed")).toMatchObject({ mode: "plan" });
    const state = (await s.nova.request({ type: "get_state" })).data;
    expect(state.permissionMode).toBe("plan");
    expect(state.systemPrompt[0]).toContain("plan mode");
    const write = await call("write", { path: "a.txt", content: "x" });
    const end = await settled(write.from);
    expect(end.isError).toBe(true);
    expect(end.result.content[0].text).toContain("Plan mode is on");
    expect(existsSync(join(s.cwd, "a.txt"))).toBe(false);
    expect(JSON.stringify(s.server.requests.at(-1)!.body)).toContain("plan mode");
    const touch = await settled((await call("bash", { command: "touch b.txt" })).from);
    expect(touch.result.content[0].text).toContain("only commands that read run in plan mode");
    expect(existsSync(join(s.cwd, "b.txt"))).toBe(false);
    writeFileSync(join(s.cwd, "c.txt"), "hello plan\n");
    const cat = await settled((await call("bash", { command: "cat c.txt | wc -l" })).from);
    expect(cat.isError).toBe(false);
    const redirect = await settled((await call("bash", { command: "echo hi > d.txt" })).from);
    expect(redirect.isError).toBe(true);
    expect(existsSync(join(s.cwd, "d.txt"))).toBe(false);
    const read = await settled((await call("read", { path: "c.txt" })).from);
    expect(read.isError).toBe(false);
    // setting the same mode again announces nothing
    const again = s.nova.frames.length;
    await setMode("plan");
    expect(s.nova.frames.slice(again).some((fr) => fr.type === "permission_mode_changed")).toBe(false);
  });

  test("bypass: nothing asks, a deny rule still holds; dontAsk: what would ask is refused unasked", async () => {
    s = await scenario({ extra: { permissions: { files: { deny: ["**/secret/**"] } } } });
    const outside = realpathSync(tempDir("nova-outside-"));
    await setMode("bypass");
    expect((await call("write", { path: join(outside, "a.txt"), content: "a" })).request).toBeUndefined();
    expect(readFileSync(join(outside, "a.txt"), "utf8")).toBe("a");
    const denied = await settled((await call("write", { path: "secret/k.txt", content: "k" })).from);
    expect(denied.result.content[0].text).toContain('deny rule "**/secret/**"');
    await setMode("dontAsk");
    const refused = await call("write", { path: join(outside, "b.txt"), content: "b" });
    expect(refused.request).toBeUndefined();
    const end = await settled(refused.from);
    expect(end.result.content[0].text).toContain("the permission mode is dontAsk");
    expect(end.result.content[0].text).toContain("permissions.files.allow");
    expect(existsSync(join(outside, "b.txt"))).toBe(false);
  });

  test("host tools: mutating: true asks with kind host and the arguments; plan refuses it; unmarked ones run", async () => {
    s = await scenario();
    const tool = (name: string, mutating?: boolean) => ({
      name,
      description: name,
      parameters: { type: "object", properties: { n: { type: "number" } } },
      ...(mutating === undefined ? {} : { mutating }),
    });
    expect((await s.nova.request({ type: "set_host_tools", tools: [tool("deploy", true), tool("lookup")] })).success).toBe(true);
    const { from, request } = await call("deploy", { n: 1 }, "h1");
    expect(request).toMatchObject({ kind: "host", toolName: "deploy", toolCallId: "h1", arguments: { n: 1 } });
    await s.nova.request({ type: "permission_response", requestId: request!.requestId, approved: true });
    const hostCall = await s.nova.waitFor((fr) => fr.type === "host_tool_call", from);
    s.nova.send({ type: "host_tool_result", id: hostCall.id, result: { content: [{ type: "text", text: "deployed" }] } });
    expect((await settled(from)).isError).toBe(false);
    const lookup = s.nova.frames.length;
    s.server.enqueue(f.toolCalls([{ id: "l1", name: "lookup", args: { n: 2 } }]), f.text("finished"));
    await s.nova.request({ type: "prompt", message: "look" });
    const lookupCall = await s.nova.waitFor((fr) => fr.type === "host_tool_call", lookup);
    s.nova.send({ type: "host_tool_result", id: lookupCall.id, result: { content: [{ type: "text", text: "found" }] } });
    expect((await settled(lookup)).isError).toBe(false);
    expect(s.nova.frames.slice(lookup).some((fr) => fr.type === "permission_request")).toBe(false);
    await setMode("plan");
    const planned = await settled((await call("deploy", { n: 3 })).from);
    expect(planned.result.content[0].text).toContain("Plan mode is on");
  });
  test("host tools marked mutating in the other modes: acceptEdits asks, bypass runs unasked, dontAsk refuses unasked", async () => {
    s = await scenario();
    const deploy = { name: "deploy", description: "deploy", parameters: { type: "object", properties: { n: { type: "number" } } }, mutating: true };
    expect((await s.nova.request({ type: "set_host_tools", tools: [deploy] })).success).toBe(true);
    /** answers the host tool call when one comes; resolves with the tool's end */
    const run = async (id: string) => {
      const nova = s!.nova;
      const from = nova.frames.length;
      s!.server.enqueue(f.toolCalls([{ id, name: "deploy", args: { n: 1 } }]), f.text("finished"));
      await nova.request({ type: "prompt", message: "go" });
      const next = () => nova.waitFor((fr) => ["permission_request", "host_tool_call", "tool_execution_end"].includes(fr.type), nova.frames.length);
      let frame = nova.frames.slice(from).find((fr) => ["permission_request", "host_tool_call", "tool_execution_end"].includes(fr.type)) ?? (await next());
      let request: Frame | undefined;
      if (frame.type === "permission_request") {
        request = frame;
        const after = nova.frames.length;
        await nova.request({ type: "permission_response", requestId: frame.requestId, approved: true });
        frame = await nova.waitFor((fr) => fr.type === "host_tool_call" || fr.type === "tool_execution_end", after);
      }
      if (frame.type === "host_tool_call") nova.send({ type: "host_tool_result", id: frame.id, result: { content: [{ type: "text", text: "deployed" }] } });
      return { request, end: await settled(from) };
    };
    await setMode("acceptEdits");
    const accepting = await run("a1");
    expect([accepting.request?.kind, accepting.end.isError]).toEqual(["host", false]);
    await setMode("bypass");
    const bypassed = await run("b1");
    expect([bypassed.request, bypassed.end.isError]).toEqual([undefined, false]);
    await setMode("dontAsk");
    const refused = await run("d1");
    expect(refused.request).toBeUndefined();
    expect(refused.end.isError).toBe(true);
    expect(refused.end.result.content[0].text).toContain("dontAsk");
  });
});

describe("remember", () => {
  test('"session": the same command runs unasked for the rest of the session; another still asks', async () => {
    s = await scenario();
    mkdirSync(join(s.cwd, "build"));
    const first = await call("bash", { command: "rm -rf build" });
    await s.nova.request({ type: "permission_response", requestId: first.request!.requestId, approved: true, remember: "session" });
    await settled(first.from);
    mkdirSync(join(s.cwd, "build"));
    expect((await call("bash", { command: "rm -rf build" })).request).toBeUndefined();
    expect(existsSync(join(s.cwd, "build"))).toBe(false);
    const other = await call("bash", { command: "rm -rf dist" });
    expect(other.request?.command).toBe("rm -rf dist");
    await s.nova.request({ type: "permission_response", requestId: other.request!.requestId, approved: false });
    const bad = await s.nova.request({ type: "permission_response", requestId: 1, approved: true, remember: "forever" });
    expect(bad.success).toBe(false);
    expect(bad.error).toContain("remember");
  });

  test('"always": the rule is written to the config file with its comments kept, and a new process honours it', async () => {
    const server = await startProviderServer();
    const home = tempDir("nova-home-");
    const cwd = tempDir("nova-cwd-");
    const file = join(home, "test-config.yml");
    const text = `# my own notes, keep them\n${stringify(testConfig(server.url))}permissions:\n  bash:\n    allow: [] # trusted commands\n`;
    const spawn = () => startNova({ args: ["--no-session"], cwd, home, config: text });
    let nova = await spawn();
    try {
      server.enqueue(f.toolCalls([{ id: "a1", name: "bash", args: { command: "rm -rf build" } }]), f.text("done"));
      await nova.request({ type: "prompt", message: "go" });
      const request = await nova.waitFor((fr: Frame) => fr.type === "permission_request");
      await nova.request({ type: "permission_response", requestId: request.requestId, approved: true, remember: "always" });
      await nova.waitFor((fr: Frame) => fr.type === "agent_settled");
      const saved = readFileSync(file, "utf8");
      expect(saved).toContain("# my own notes, keep them");
      expect(saved).toContain("# trusted commands");
      expect(parse(saved).permissions.bash.allow).toEqual(["rm -rf build"]);
      await nova.stop();
      // startNova writes the config file again: give it the saved text
      nova = await startNova({ args: ["--no-session"], cwd, home, config: saved });
      mkdirSync(join(cwd, "build"));
      server.enqueue(f.toolCalls([{ id: "a2", name: "bash", args: { command: "rm -rf build" } }]), f.text("done"));
      await nova.request({ type: "prompt", message: "again" });
      await nova.waitFor((fr: Frame) => fr.type === "agent_settled");
      expect(nova.frames.some((fr: Frame) => fr.type === "permission_request")).toBe(false);
      expect(existsSync(join(cwd, "build"))).toBe(false);
    } finally {
      await nova.stop();
      await server.close();
    }
  });
});

describe("withdrawal", () => {
  test("abort sends permission_cancelled and the model is told the call was cancelled before an answer", async () => {
    s = await scenario();
    const { from, request } = await call("bash", { command: "sudo reboot" });
    await s.nova.request({ type: "abort" });
    await s.nova.waitFor((fr) => fr.type === "agent_settled", from);
    const frames = s.nova.frames.slice(from);
    expect(frames.find((fr) => fr.type === "permission_cancelled")).toEqual({ type: "permission_cancelled", requestId: request!.requestId, reason: "aborted" });
    const end = frames.find((fr) => fr.type === "tool_execution_end")!;
    expect(end.result.content[0].text).toContain("cancelled before an answer");
    expect(end.result.content[0].text).not.toContain("denied");
  });

  test("stdin closing sends permission_cancelled with reason host_gone", async () => {
    s = await scenario();
    const outside = realpathSync(tempDir("nova-outside-"));
    const { from, request } = await call("write", { path: join(outside, "x.txt"), content: "x" });
    s.nova.closeStdin();
    expect(await s.nova.exited).toBe(0);
    const frames = s.nova.frames.slice(from);
    expect(frames.find((fr) => fr.type === "permission_cancelled")).toMatchObject({ requestId: request!.requestId, reason: "host_gone" });
    const end = frames.find((fr) => fr.type === "tool_execution_end")!;
    expect(end.result.content[0].text).toContain("cancelled before an answer (the host is gone");
    expect(existsSync(join(outside, "x.txt"))).toBe(false);
  });
});

test("a sub-agent's question carries its agentId and the sub-agent's toolCallId", async () => {
  s = await scenario();
  const outside = realpathSync(tempDir("nova-outside-"));
  const from = s.nova.frames.length;
  s.server.enqueue(
    f.toolCalls([{ id: "t1", name: "task", args: { task: "write the file", tools: ["write"] } }]),
    f.toolCalls([{ id: "cw1", name: "write", args: { path: join(outside, "child.txt"), content: "from the child" } }]),
    f.text("child wrote it"),
    f.text("parent done"),
  );
  await s.nova.request({ type: "prompt", message: "delegate" });
  const request = await s.nova.waitFor((fr) => fr.type === "permission_request", from);
  expect(request).toMatchObject({ kind: "write", toolCallId: "cw1" });
  expect(request.agentId).toMatch(/^agent_/);
  await s.nova.request({ type: "permission_response", requestId: request.requestId, approved: true });
  await s.nova.waitFor((fr) => fr.type === "agent_settled", from);
  expect(readFileSync(join(outside, "child.txt"), "utf8")).toBe("from the child");
});

test("a ui confirm carries the same facts: kind, path, reason and diff", async () => {
  s = await scenario({ args: ["--no-session", "--permission-prompt", "ui"] });
  const outside = realpathSync(tempDir("nova-outside-"));
  const from = s.nova.frames.length;
  s.server.enqueue(f.toolCalls([{ id: "u1", name: "write", args: { path: join(outside, "u.txt"), content: "new text" } }]), f.text("ok"));
  await s.nova.request({ type: "prompt", message: "go" });
  const ask = await s.nova.waitFor((fr) => fr.type === "extension_ui_request" && fr.method === "confirm", from);
  expect(ask.title).toContain("write");
  expect(ask.message).toContain(join(outside, "u.txt"));
  expect(ask.message).toContain("outside the working folder");
  expect(ask.message).toContain("+new text");
  s.nova.send({ type: "extension_ui_response", id: ask.id, confirmed: true });
  await s.nova.waitFor((fr) => fr.type === "agent_settled", from);
  expect(readFileSync(join(outside, "u.txt"), "utf8")).toBe("new text");
});
