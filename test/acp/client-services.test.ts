/** Files and commands go through the editor when it offers fs and terminal at initialize. */
import { afterEach, expect, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { f, startAcp, type AcpNova } from "./client.ts";

let n: AcpNova | undefined;
afterEach(async () => {
  await n?.close();
  n = undefined;
});

test("with fs offered, read sees the unsaved buffer and edit/write land in the editor, not on disk", async () => {
  const buffers = new Map<string, string>();
  n = await startAcp({ buffers });
  await n.initialize();
  const { sessionId } = await n.conn.newSession({ cwd: n.cwd, mcpServers: [] });
  const file = join(n.cwd, "main.ts");
  writeFileSync(file, "saved();\n");
  buffers.set(file, "unsaved();\nsecond();\n");
  n.server.enqueue(
    f.toolCalls([
      { id: "r1", name: "read", args: { path: "main.ts" } },
      { id: "e1", name: "edit", args: { path: "main.ts", oldText: "second", newText: "third" } },
      { id: "w1", name: "write", args: { path: "new.ts", content: "fresh();\n" } },
    ]),
    f.text("ok"),
  );
  await n.conn.prompt({ sessionId, prompt: [{ type: "text", text: "go" }] });
  expect(JSON.stringify(n.client.toolUpdates("r1").at(-1)!.content)).toContain("unsaved();");
  expect(n.client.reads).toEqual([file, file]);
  expect(n.client.writes).toEqual([
    { path: file, content: "unsaved();\nthird();\n" },
    { path: join(n.cwd, "new.ts"), content: "fresh();\n" },
  ]);
  expect(readFileSync(file, "utf8")).toBe("saved();\n");
  expect(n.client.toolUpdates("e1").at(-1)).toMatchObject({ status: "completed" });
});

test("without fs offered, the tools use the disk and never call the client", async () => {
  n = await startAcp();
  await n.initialize();
  const { sessionId } = await n.conn.newSession({ cwd: n.cwd, mcpServers: [] });
  n.server.enqueue(f.toolCalls([{ id: "w1", name: "write", args: { path: "disk.txt", content: "on disk\n" } }]), f.text("ok"));
  await n.conn.prompt({ sessionId, prompt: [{ type: "text", text: "go" }] });
  expect(readFileSync(join(n.cwd, "disk.txt"), "utf8")).toBe("on disk\n");
  expect(n.client.writes).toEqual([]);
});

test("with terminal offered, bash runs in an editor terminal embedded in the tool call, then released", async () => {
  n = await startAcp({ terminal: true });
  await n.initialize();
  const { sessionId } = await n.conn.newSession({ cwd: n.cwd, mcpServers: [] });
  n.server.enqueue(f.toolCalls([{ id: "t1", name: "bash", args: { command: "echo from-terminal; pwd; exit 3" } }]), f.text("ran"));
  await n.conn.prompt({ sessionId, prompt: [{ type: "text", text: "run" }] });
  const [terminalId, terminal] = [...n.client.terminals][0]!;
  expect(terminal!.params).toMatchObject({ sessionId, command: "bash", args: ["-c", "echo from-terminal; pwd; exit 3"], cwd: n.cwd });
  const done = n.client.toolUpdates("t1").at(-1)!;
  expect(done.status).toBe("failed");
  expect(done.content).toContainEqual({ type: "terminal", terminalId });
  const text = JSON.stringify(done.content);
  expect(text).toContain("from-terminal");
  expect(text).toContain(n.cwd);
  expect(text).toContain("[exit code: 3]");
  expect(n.client.released).toEqual([terminalId!]);
});
