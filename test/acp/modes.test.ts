/** ACP session modes (the permission modes) and edit questions with diff content, through the ACP SDK client. */
import { afterEach, expect, test } from "bun:test";
import { existsSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { f, startAcp, type AcpNova } from "./client.ts";
import { tempDir } from "../support/nova.ts";

let n: AcpNova | undefined;
afterEach(async () => {
  await n?.close();
  n = undefined;
});

test("session/new advertises the modes; session/set_mode switches and sends current_mode_update; plan refuses a write; an unknown mode is -32602", async () => {
  n = await startAcp();
  await n.initialize();
  const created = await n.conn.newSession({ cwd: n.cwd, mcpServers: [] });
  expect(created.modes?.currentModeId).toBe("default");
  expect(created.modes?.availableModes.map((m) => m.id)).toEqual(["default", "acceptEdits", "plan", "bypass", "dontAsk"]);
  expect(created.modes?.availableModes.every((m) => m.name.length > 0)).toBe(true);
  const { sessionId } = created;
  await n.conn.setSessionMode({ sessionId, modeId: "plan" });
  const update = await n.client.waitForUpdate((u) => u.update.sessionUpdate === "current_mode_update");
  expect(update.update).toMatchObject({ currentModeId: "plan" });
  n.server.enqueue(f.toolCalls([{ id: "w1", name: "write", args: { path: "a.txt", content: "x" } }]), f.text("here is the plan"));
  expect((await n.conn.prompt({ sessionId, prompt: [{ type: "text", text: "change it" }] })).stopReason).toBe("end_turn");
  const done = n.client.toolUpdates("w1").at(-1)!;
  expect(done.status).toBe("failed");
  expect(JSON.stringify(done.content)).toContain("Plan mode is on");
  expect(existsSync(join(n.cwd, "a.txt"))).toBe(false);
  expect(JSON.stringify(n.server.requests[0]!.body)).toContain("plan mode");
  await expect(n.conn.setSessionMode({ sessionId, modeId: "yolo" })).rejects.toMatchObject({ code: -32602, message: expect.stringContaining('"yolo"') });
  // load reports the mode the session is in
  const loaded = await n.conn.loadSession({ sessionId, cwd: n.cwd, mcpServers: [] });
  expect(loaded.modes?.availableModes).toHaveLength(5);
});

test("a write outside the project asks with kind edit and an ACP diff block; allow_once writes it", async () => {
  const outside = realpathSync(tempDir("nova-outside-"));
  writeFileSync(join(outside, "notes.txt"), "old text\n");
  n = await startAcp({ permission: () => ({ outcome: { outcome: "selected", optionId: "allow_once" } }) });
  await n.initialize();
  const { sessionId } = await n.conn.newSession({ cwd: n.cwd, mcpServers: [] });
  n.server.enqueue(f.toolCalls([{ id: "o1", name: "write", args: { path: join(outside, "notes.txt"), content: "new text\n" } }]), f.text("done"));
  await n.conn.prompt({ sessionId, prompt: [{ type: "text", text: "write it" }] });
  const [request] = n.client.permissionRequests;
  expect(request!.toolCall).toMatchObject({ toolCallId: "o1", kind: "edit" });
  expect(request!.toolCall.content).toEqual([{ type: "diff", path: join(outside, "notes.txt"), oldText: "old text\n", newText: "new text\n" }]);
  expect(readFileSync(join(outside, "notes.txt"), "utf8")).toBe("new text\n");
});

test("acceptEdits through session/set_mode: a protected file inside the project is edited unasked", async () => {
  n = await startAcp();
  await n.initialize();
  const { sessionId } = await n.conn.newSession({ cwd: n.cwd, mcpServers: [] });
  writeFileSync(join(n.cwd, ".env"), "A=1\n");
  await n.conn.setSessionMode({ sessionId, modeId: "acceptEdits" });
  n.server.enqueue(f.toolCalls([{ id: "e1", name: "edit", args: { path: ".env", oldText: "A=1", newText: "A=2" } }]), f.text("done"));
  await n.conn.prompt({ sessionId, prompt: [{ type: "text", text: "edit it" }] });
  expect(n.client.permissionRequests).toHaveLength(0);
  expect(readFileSync(join(n.cwd, ".env"), "utf8")).toBe("A=2\n");
});
