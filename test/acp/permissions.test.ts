/** session/request_permission for flagged bash commands, answered each way, and cancel mid-turn. */
import { afterEach, expect, test } from "bun:test";
import { existsSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import type * as acp from "@agentclientprotocol/sdk";
import { f, startAcp, type AcpNova, type ClientOptions } from "./client.ts";

let n: AcpNova | undefined;
afterEach(async () => {
  await n?.close();
  n = undefined;
});

const choose =
  (optionId: string): ClientOptions["permission"] =>
  () => ({ outcome: { outcome: "selected", optionId } });

async function cleanUp(options: ClientOptions, commands: string[]) {
  n = await startAcp(options);
  await n.initialize();
  const { sessionId } = await n.conn.newSession({ cwd: n.cwd, mcpServers: [] });
  mkdirSync(join(n.cwd, "build"));
  for (const [i, command] of commands.entries()) n.server.enqueue(f.toolCalls([{ id: `b${i}`, name: "bash", args: { command } }]));
  n.server.enqueue(f.text("finished"));
  const answer = await n.conn.prompt({ sessionId, prompt: [{ type: "text", text: "clean up" }] });
  return { sessionId, answer };
}

test("allow_once runs the flagged command; the request names the tool call and offers all four options", async () => {
  const { sessionId, answer } = await cleanUp({ permission: choose("allow_once") }, ["rm -rf build && echo removed"]);
  expect(answer.stopReason).toBe("end_turn");
  expect(existsSync(join(n!.cwd, "build"))).toBe(false);
  const [request] = n!.client.permissionRequests;
  expect(request).toMatchObject({ sessionId, toolCall: { toolCallId: "b0", title: "rm -rf build && echo removed", kind: "execute" } });
  expect(request!.options.map((o) => o.kind)).toEqual(["allow_once", "allow_always", "reject_once", "reject_always"]);
  const done = n!.client.toolUpdates("b0").at(-1)!;
  expect(done).toMatchObject({ status: "completed" });
  expect(JSON.stringify(done.content)).toContain("removed");
});

test("reject_once: nothing runs and the tool call fails with the denial", async () => {
  await cleanUp({ permission: choose("reject_once") }, ["rm -rf build"]);
  expect(existsSync(join(n!.cwd, "build"))).toBe(true);
  const done = n!.client.toolUpdates("b0").at(-1)!;
  expect(done.status).toBe("failed");
  expect(JSON.stringify(done.content)).toMatch(/denied/);
  expect(JSON.stringify(n!.server.requests[1]!.body)).toMatch(/permission denied/);
});

test("allow_always is remembered for the session: the same command is not asked again", async () => {
  await cleanUp({ permission: choose("allow_always") }, ["rm -rf build", "rm -rf build"]);
  expect(n!.client.permissionRequests).toHaveLength(1);
  expect(n!.client.toolUpdates("b1").at(-1)).toMatchObject({ status: "completed" });
});

test("reject_always is remembered too: the second call fails without a question", async () => {
  await cleanUp({ permission: choose("reject_always") }, ["rm -rf build", "rm -rf build"]);
  expect(n!.client.permissionRequests).toHaveLength(1);
  expect(n!.client.toolUpdates("b1").at(-1)).toMatchObject({ status: "failed" });
  expect(existsSync(join(n!.cwd, "build"))).toBe(true);
});

test("cancel while a permission request is open: the prompt answers cancelled and nothing runs", async () => {
  let answerQuestion: (r: acp.RequestPermissionResponse) => void = () => {};
  let questionAsked: () => void = () => {};
  const asked = new Promise<void>((resolve) => (questionAsked = resolve));
  n = await startAcp({
    permission: () => {
      questionAsked();
      return new Promise((resolve) => (answerQuestion = resolve));
    },
  });
  await n.initialize();
  const { sessionId } = await n.conn.newSession({ cwd: n.cwd, mcpServers: [] });
  mkdirSync(join(n.cwd, "build"));
  n.server.enqueue(f.toolCalls([{ id: "c1", name: "bash", args: { command: "rm -rf build" } }]));
  const prompt = n.conn.prompt({ sessionId, prompt: [{ type: "text", text: "clean" }] });
  await asked;
  await n.conn.cancel({ sessionId });
  expect((await prompt).stopReason).toBe("cancelled");
  answerQuestion({ outcome: { outcome: "cancelled" } });
  expect(existsSync(join(n.cwd, "build"))).toBe(true);
  expect(n.server.requests).toHaveLength(1);
});

test("cancel mid-stream: the prompt answers cancelled, never an error, and the session takes the next prompt", async () => {
  n = await startAcp();
  await n.initialize();
  const { sessionId } = await n.conn.newSession({ cwd: n.cwd, mcpServers: [] });
  n.server.enqueue(f.text("this goes on and on", { end: "stall", keep: 3 }));
  const prompt = n.conn.prompt({ sessionId, prompt: [{ type: "text", text: "talk" }] });
  await n.client.waitForUpdate((u) => u.update.sessionUpdate === "agent_message_chunk");
  await n.conn.cancel({ sessionId });
  expect((await prompt).stopReason).toBe("cancelled");
  n.server.enqueue(f.text("back again"));
  expect((await n.conn.prompt({ sessionId, prompt: [{ type: "text", text: "again" }] })).stopReason).toBe("end_turn");
  expect(n.client.text("agent_message_chunk")).toEndWith("back again");
});
