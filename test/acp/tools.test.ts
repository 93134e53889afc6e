/** Tool calls as ACP tool_call / tool_call_update: kinds, titles, locations, diffs, failures. */
import { afterEach, expect, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { cutAfter } from "../support/scenario.ts";
import { f, startAcp, type AcpNova } from "./client.ts";

let n: AcpNova | undefined;
afterEach(async () => {
  await n?.close();
  n = undefined;
});

async function session() {
  n = await startAcp();
  await n.initialize();
  return (await n.conn.newSession({ cwd: n.cwd, mcpServers: [] })).sessionId;
}

test("an edit is a tool call of kind edit with diff content and the changed line", async () => {
  const sessionId = await session();
  const file = join(n!.cwd, "app.ts");
  writeFileSync(file, "one\ntwo\nthree\n");
  n!.server.enqueue(f.toolCalls([{ id: "e1", name: "edit", args: { path: "app.ts", oldText: "two", newText: "TWO" } }]), f.text("done"));
  const answer = await n!.conn.prompt({ sessionId, prompt: [{ type: "text", text: "shout two" }] });
  expect(answer.stopReason).toBe("end_turn");
  expect(readFileSync(file, "utf8")).toBe("one\nTWO\nthree\n");
  const updates = n!.client.toolUpdates("e1");
  expect(updates[0]).toMatchObject({
    sessionUpdate: "tool_call",
    title: "Edit app.ts",
    kind: "edit",
    status: "pending",
    locations: [{ path: file }],
    rawInput: { path: "app.ts" },
  });
  expect(updates.map((u) => u.status).filter(Boolean)).toEqual(["pending", "in_progress", "completed"]);
  const last = updates.at(-1)!;
  expect(last.content).toContainEqual({ type: "diff", path: file, oldText: "two", newText: "TWO" });
  expect(last.locations).toEqual([{ path: file, line: 2 }]);
  expect(JSON.stringify(last.content)).toContain("Edited app.ts: 1 replacement");
});

test("a write shows the whole file against its old text; a new file has no old text", async () => {
  const sessionId = await session();
  const file = join(n!.cwd, "notes.md");
  writeFileSync(file, "old\n");
  n!.server.enqueue(
    f.toolCalls([
      { id: "w1", name: "write", args: { path: "notes.md", content: "new\n" } },
      { id: "w2", name: "write", args: { path: "fresh.md", content: "hello\n" } },
    ]),
    f.text("written"),
  );
  await n!.conn.prompt({ sessionId, prompt: [{ type: "text", text: "write" }] });
  expect(n!.client.toolUpdates("w1").at(-1)!.content).toContainEqual({ type: "diff", path: file, oldText: "old\n", newText: "new\n" });
  expect(n!.client.toolUpdates("w2").at(-1)!.content).toContainEqual({ type: "diff", path: join(n!.cwd, "fresh.md"), oldText: null, newText: "hello\n" });
  expect(readFileSync(file, "utf8")).toBe("new\n");
});

test("read, grep and a failing edit: kinds, locations and a failed status", async () => {
  const sessionId = await session();
  writeFileSync(join(n!.cwd, "a.txt"), "alpha\nbeta\n");
  n!.server.enqueue(
    f.toolCalls([
      { id: "r1", name: "read", args: { path: "a.txt", offset: 2 } },
      { id: "g1", name: "grep", args: { pattern: "beta" } },
      { id: "x1", name: "edit", args: { path: "a.txt", oldText: "gamma", newText: "delta" } },
    ]),
    f.text("looked"),
  );
  await n!.conn.prompt({ sessionId, prompt: [{ type: "text", text: "look" }] });
  const read = n!.client.toolUpdates("r1");
  expect(read[0]).toMatchObject({ kind: "read", title: "Read a.txt", locations: [{ path: join(n!.cwd, "a.txt"), line: 2 }] });
  expect(read.at(-1)).toMatchObject({ status: "completed" });
  expect(JSON.stringify(read.at(-1)!.content)).toContain("beta");
  expect(n!.client.toolUpdates("g1")[0]).toMatchObject({ kind: "search", title: 'grep "beta"' });
  const failed = n!.client.toolUpdates("x1").at(-1)!;
  expect(failed.status).toBe("failed");
  expect(failed.content!.some((c) => c.type === "diff")).toBe(false);
  expect(JSON.stringify(failed.content)).toContain("matched 0 times");
});

test("a call the model wrote but that never ran (the stream broke after it) ends as failed", async () => {
  const sessionId = await session();
  n!.server.enqueue(cutAfter(f.toolCalls([{ id: "z1", name: "ls", args: {} }]), '"finish_reason":"tool_calls"', "drop"));
  await expect(n!.conn.prompt({ sessionId, prompt: [{ type: "text", text: "list" }] })).rejects.toMatchObject({ code: -32603 });
  const updates = n!.client.toolUpdates("z1");
  expect(updates[0]).toMatchObject({ sessionUpdate: "tool_call", kind: "search", status: "pending" });
  expect(updates.at(-1)).toMatchObject({ sessionUpdate: "tool_call_update", status: "failed" });
});

test("the todo list becomes an ACP plan", async () => {
  const sessionId = await session();
  const phases = [
    {
      name: "Fix",
      tasks: [
        { content: "find the bug", status: "completed" },
        { content: "patch it", status: "in_progress" },
        { content: "old idea", status: "abandoned" },
      ],
    },
    { name: "Check", tasks: [{ content: "run the tests", status: "pending" }] },
  ];
  // open tasks may earn the model a reminder turn: a spare answer keeps the script from running out
  n!.server.enqueue(f.toolCalls([{ id: "t1", name: "todo", args: { phases } }]), f.text("planned"), f.text("still planned"));
  await n!.conn.prompt({ sessionId, prompt: [{ type: "text", text: "plan it" }] });
  expect(n!.client.toolUpdates("t1")[0]).toMatchObject({ kind: "think", title: "Update the plan" });
  const plan = await n!.client.waitForUpdate((u) => u.update.sessionUpdate === "plan");
  expect(plan.update).toEqual({
    sessionUpdate: "plan",
    entries: [
      { content: "Fix: find the bug", priority: "medium", status: "completed" },
      { content: "Fix: patch it", priority: "medium", status: "in_progress" },
      { content: "Check: run the tests", priority: "medium", status: "pending" },
    ],
  });
});
