/** session/load in a new process replays the history before it answers; session/list finds it. */
import { afterEach, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { startProviderServer, type ProviderServer } from "../support/provider-server.ts";
import { tempDir } from "../support/nova.ts";
import { f, PNG, startAcp, type AcpNova } from "./client.ts";

const open: AcpNova[] = [];
let server: ProviderServer | undefined;
afterEach(async () => {
  for (const n of open.splice(0)) await n.close();
  await server?.close();
  server = undefined;
});

test("a session loaded in a new process replays user, thought, agent and tool updates, then continues", async () => {
  server = await startProviderServer();
  const home = tempDir("nova-acp-home-");
  const cwd = tempDir("nova-acp-cwd-");
  writeFileSync(join(cwd, "app.ts"), "let x = 1;\n");

  const first = await startAcp({ server, home, cwd, reasoning: true });
  open.push(first);
  await first.initialize();
  const { sessionId } = await first.conn.newSession({ cwd, mcpServers: [] });
  server.enqueue(
    f.turn([{ thinking: "Edit it." }, { text: "Editing." }, { toolCall: { id: "e1", name: "edit", args: { path: "app.ts", oldText: "1", newText: "2" } } }]),
    f.text("Done."),
  );
  await first.conn.prompt({
    sessionId,
    prompt: [
      { type: "text", text: "bump x" },
      { type: "image", data: PNG, mimeType: "image/png" },
    ],
  });
  expect(await first.close()).toBe(0);

  const second = await startAcp({ server, home, cwd, reasoning: true });
  open.push(second);
  await second.initialize();
  const listed = await second.conn.listSessions({ cwd });
  expect(listed.sessions).toEqual([expect.objectContaining({ sessionId, cwd, title: "bump x" })]);
  const loaded = await second.conn.loadSession({ sessionId, cwd, mcpServers: [] });
  expect(loaded.configOptions?.find((o) => o.id === "model")).toMatchObject({ currentValue: "test/m1" });
  const client = second.client;
  expect(client.kinds().filter((k) => k !== "available_commands_update")).toEqual([
    "user_message_chunk",
    "user_message_chunk",
    "agent_thought_chunk",
    "agent_message_chunk",
    "tool_call",
    "tool_call_update",
    "agent_message_chunk",
  ]);
  expect(client.text("user_message_chunk")).toBe("bump x");
  expect(client.updates[1]!.update).toMatchObject({ content: { type: "image", data: PNG, mimeType: "image/png" } });
  expect(client.text("agent_thought_chunk")).toBe("Edit it.");
  expect(client.text("agent_message_chunk")).toBe("Editing.Done.");
  expect(client.updates[4]!.update).toMatchObject({ toolCallId: "e1", kind: "edit", title: "Edit app.ts" });
  expect(client.updates[5]!.update).toMatchObject({
    toolCallId: "e1",
    status: "completed",
    locations: [{ path: join(cwd, "app.ts"), line: 1 }],
    content: expect.arrayContaining([{ type: "diff", path: join(cwd, "app.ts"), oldText: "1", newText: "2" }]),
  });

  server.enqueue(f.text("Still here."));
  expect((await second.conn.prompt({ sessionId, prompt: [{ type: "text", text: "and now?" }] })).stopReason).toBe("end_turn");
  const history = JSON.stringify(server.requests.at(-1)!.body.messages);
  expect(history).toContain("bump x");
  expect(history).toContain("Done.");
});

test("a session created with session/new and never prompted loads in a new process with an empty history", async () => {
  server = await startProviderServer();
  const home = tempDir("nova-acp-home-");
  const cwd = tempDir("nova-acp-cwd-");
  const first = await startAcp({ server, home, cwd });
  open.push(first);
  await first.initialize();
  const { sessionId } = await first.conn.newSession({ cwd, mcpServers: [] });
  expect(await first.close()).toBe(0);

  const second = await startAcp({ server, home, cwd });
  open.push(second);
  await second.initialize();
  await second.conn.loadSession({ sessionId, cwd, mcpServers: [] });
  expect(second.client.kinds().filter((k) => k !== "available_commands_update")).toEqual([]);
  server.enqueue(f.text("Fresh start."));
  expect((await second.conn.prompt({ sessionId, prompt: [{ type: "text", text: "hello" }] })).stopReason).toBe("end_turn");
  expect(server.requests.at(-1)!.body.messages.filter((m: { role: string }) => m.role !== "system")).toEqual([{ role: "user", content: "hello" }]);
});

test("loading an unknown session is resource-not-found", async () => {
  const n = await startAcp();
  open.push(n);
  await n.initialize();
  await expect(n.conn.loadSession({ sessionId: "00000000-0000-0000-0000-000000000000", cwd: n.cwd, mcpServers: [] })).rejects.toMatchObject({ code: -32002 });
  expect((await n.conn.listSessions({})).sessions).toEqual([]);
});

test("the plan is replayed with the history", async () => {
  server = await startProviderServer();
  const home = tempDir("nova-acp-home-");
  const cwd = tempDir("nova-acp-cwd-");
  const first = await startAcp({ server, home, cwd });
  open.push(first);
  await first.initialize();
  const { sessionId } = await first.conn.newSession({ cwd, mcpServers: [] });
  const phases = [{ name: "Only", tasks: [{ content: "write docs", status: "completed" }] }];
  server.enqueue(f.toolCalls([{ id: "t1", name: "todo", args: { phases } }]), f.text("done"), f.text("spare"));
  await first.conn.prompt({ sessionId, prompt: [{ type: "text", text: "plan" }] });
  await first.close();

  const second = await startAcp({ server, home, cwd });
  open.push(second);
  await second.initialize();
  await second.conn.loadSession({ sessionId, cwd, mcpServers: [] });
  const plan = second.client.updates.find((u) => u.update.sessionUpdate === "plan");
  expect(plan?.update).toEqual({ sessionUpdate: "plan", entries: [{ content: "write docs", priority: "medium", status: "completed" }] });
});
