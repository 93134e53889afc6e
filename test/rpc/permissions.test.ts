/** Bash permission requests through the real process (PROTOCOL.md §7). */
import { afterEach, expect, test } from "bun:test";
import { existsSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { promptAndSettle, scenario, type Scenario } from "../support/scenario.ts";
import { fixtures } from "../support/fixtures/index.ts";

const f = fixtures.openaiChat;
let s: Scenario | undefined;
afterEach(async () => {
  await s?.close();
  s = undefined;
});

async function flagged(command: string) {
  const from = s!.nova.frames.length;
  s!.server.enqueue(f.toolCalls([{ id: "p1", name: "bash", args: { command } }]), f.text("finished"));
  await s!.nova.request({ type: "prompt", message: "clean up" });
  const request = await s!.nova.waitFor((fr) => fr.type === "permission_request", from);
  return { from, request };
}

test("approved: the flagged command runs", async () => {
  s = await scenario();
  mkdirSync(join(s.cwd, "build"));
  const { from, request } = await flagged("rm -rf build && echo removed");
  expect(request).toMatchObject({ toolName: "bash", command: "rm -rf build && echo removed" });
  expect(typeof request.requestId).toBe("number");
  expect(existsSync(join(s.cwd, "build"))).toBe(true);
  expect((await s.nova.request({ type: "permission_response", requestId: request.requestId, approved: true })).success).toBe(true);
  await s.nova.waitFor((fr) => fr.type === "agent_settled", from);
  const end = s.nova.frames.slice(from).find((fr) => fr.type === "tool_execution_end")!;
  expect(end.isError).toBe(false);
  expect(end.result.content[0].text).toContain("removed");
  expect(existsSync(join(s.cwd, "build"))).toBe(false);
  const again = await s.nova.request({ type: "permission_response", requestId: request.requestId, approved: true });
  expect(again.success).toBe(false);
});

test("denied: the model gets a tool error and nothing runs", async () => {
  s = await scenario();
  mkdirSync(join(s.cwd, "build"));
  const { from, request } = await flagged("rm -rf build");
  await s.nova.request({ type: "permission_response", requestId: String(request.requestId), approved: false });
  await s.nova.waitFor((fr) => fr.type === "agent_settled", from);
  const end = s.nova.frames.slice(from).find((fr) => fr.type === "tool_execution_end")!;
  expect(end.isError).toBe(true);
  expect(end.result.content[0].text).toMatch(/denied/i);
  expect(existsSync(join(s.cwd, "build"))).toBe(true);
  expect(JSON.stringify(s.server.requests[1].body)).toMatch(/denied/i);
});

test("abort while the request is pending cancels it and ends the turn", async () => {
  s = await scenario();
  const { from, request } = await flagged("sudo reboot");
  await s.nova.request({ type: "abort" });
  await s.nova.waitFor((fr) => fr.type === "agent_settled", from);
  expect(s.nova.frames.slice(from).filter((fr) => fr.type === "agent_end")).toHaveLength(1);
  const late = await s.nova.request({ type: "permission_response", requestId: request.requestId, approved: true });
  expect(late.success).toBe(false);
  expect(late.error).toContain("Unknown permission requestId");
});

test("an unknown requestId is refused", async () => {
  s = await scenario();
  const r = await s.nova.request({ type: "permission_response", requestId: 999, approved: true });
  expect(r).toMatchObject({ success: false, command: "permission_response" });
});

test("a config deny rule is never run and never asked about", async () => {
  s = await scenario({ extra: { permissions: { bash: { deny: ["shutdown *"], ask: [], allow: [] } } } });
  s.server.enqueue(f.toolCalls([{ id: "d1", name: "bash", args: { command: "shutdown -h now" } }]), f.text("ok"));
  const frames = await promptAndSettle(s.nova, "turn it off");
  expect(frames.filter((fr) => fr.type === "permission_request")).toEqual([]);
  const end = frames.find((fr) => fr.type === "tool_execution_end")!;
  expect(end.isError).toBe(true);
  expect(end.result.content[0].text).toContain("shutdown *");
});

test("stdin closing while a request is pending withdraws it (the host is gone, not a denial); the run ends and nova exits 0", async () => {
  s = await scenario();
  const { from } = await flagged("rm -rf build");
  s.nova.closeStdin();
  expect(await s.nova.exited).toBe(0);
  const frames = s.nova.frames.slice(from);
  const end = frames.find((fr) => fr.type === "tool_execution_end")!;
  expect(end.isError).toBe(true);
  expect(end.result.content[0].text).toContain("the host is gone (it closed stdin)");
  expect(end.result.content[0].text).not.toContain("denied by the user");
  expect(frames.map((fr) => fr.type)).toContain("agent_settled");
});

test("the user's own bash command is not gated", async () => {
  s = await scenario();
  mkdirSync(join(s.cwd, "build"));
  const r = await s.nova.request({ type: "bash", command: "rm -rf build" });
  expect(r.data.exitCode).toBe(0);
  expect(existsSync(join(s.cwd, "build"))).toBe(false);
  expect(s.nova.frames.filter((fr) => fr.type === "permission_request")).toEqual([]);
});

test("permission modes: bypass runs a flagged command unasked (deny rules hold), dontAsk denies it unasked", async () => {
  s = await scenario({ extra: { permissions: { bash: { deny: ["sudo *"] } } } });
  expect((await s.nova.request({ type: "get_state" })).data.permissionMode).toBe("default");
  const bad = await s.nova.request({ type: "set_permission_mode", mode: "yolo" });
  expect(bad.success).toBe(false);
  expect(bad.error).toContain("mode");

  const run = async (command: string) => {
    s!.server.enqueue(f.toolCalls([{ id: "p1", name: "bash", args: { command } }]), f.text("finished"));
    const frames = await promptAndSettle(s!.nova, "go");
    expect(frames.some((fr) => fr.type === "permission_request")).toBe(false);
    return frames.find((fr) => fr.type === "tool_execution_end")!;
  };
  mkdirSync(join(s.cwd, "build"));
  expect((await s.nova.request({ type: "set_permission_mode", mode: "dontAsk" })).success).toBe(true);
  const denied = await run("rm -rf build");
  expect(denied.isError).toBe(true);
  expect(denied.result.content[0].text).toContain("the permission mode is dontAsk");
  expect(existsSync(join(s.cwd, "build"))).toBe(true);

  await s.nova.request({ type: "set_permission_mode", mode: "bypass" });
  expect((await s.nova.request({ type: "get_state" })).data.permissionMode).toBe("bypass");
  expect((await run("rm -rf build")).isError).toBe(false);
  expect(existsSync(join(s.cwd, "build"))).toBe(false);
  expect((await run("sudo reboot")).result.content[0].text).toContain('deny rule "sudo *"');
});
