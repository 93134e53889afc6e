/** Host URI schemes through the real process: reads and writes go to the host. */
import { afterEach, expect, test } from "bun:test";
import { scenario, type Scenario } from "../support/scenario.ts";
import { fixtures } from "../support/fixtures/index.ts";

const f = fixtures.openaiChat;
let s: Scenario | undefined;
afterEach(async () => {
  await s?.close();
  s = undefined;
});

/** A prompt whose answer calls these tools; `then` is the answer after them (none when the turn is cut short). */
async function run(calls: { id: string; name: string; args: Record<string, unknown> }[], then: string | null = "ok") {
  s!.server.enqueue(f.toolCalls(calls));
  if (then) s!.server.enqueue(f.text(then));
  const from = s!.nova.frames.length;
  await s!.nova.request({ type: "prompt", message: "use the db" });
  return from;
}
const settle = (from: number) => s!.nova.waitFor((fr) => fr.type === "agent_settled", from);
const ends = (from: number) => s!.nova.frames.slice(from).filter((fr) => fr.type === "tool_execution_end");

test("schemes are lowercased and replaced wholesale", async () => {
  s = await scenario();
  const r = await s.nova.request({ type: "set_host_uri_schemes", schemes: [{ scheme: "DB", writable: true }, { scheme: "Docs" }] });
  expect(r.data).toEqual({ schemes: ["db", "docs"] });
  const again = await s.nova.request({ type: "set_host_uri_schemes", schemes: [{ scheme: "mem" }] });
  expect(again.data).toEqual({ schemes: ["mem"] });
  const bad = await s.nova.request({ type: "set_host_uri_schemes", schemes: [{ scheme: "1bad" }] });
  expect(bad.error).toContain("schemes[0].scheme");
});

test("read goes to the host and comes back as numbered lines with its notes", async () => {
  s = await scenario();
  await s.nova.request({ type: "set_host_uri_schemes", schemes: [{ scheme: "db" }] });
  const from = await run([{ id: "r1", name: "read", args: { path: "DB://users/42" } }]);
  const request = await s.nova.waitFor((fr) => fr.type === "host_uri_request", from);
  expect(request).toMatchObject({ operation: "read", url: "DB://users/42" });
  s.nova.send({ type: "host_uri_result", id: request.id, content: "id=42\nname=Alice\n", contentType: "text/plain", notes: ["fresh from cache"] });
  await settle(from);
  const [end] = ends(from);
  expect(end!.isError).toBe(false);
  expect(end!.result.content[0].text).toContain("2\tname=Alice");
  expect(end!.result.content[0].text).toContain("fresh from cache");
});

test("write to a writable scheme sends the full content; a read-only scheme and edit are refused", async () => {
  s = await scenario();
  await s.nova.request({ type: "set_host_uri_schemes", schemes: [{ scheme: "db", writable: true }, { scheme: "docs" }] });
  const from = await run([
    { id: "w1", name: "write", args: { path: "db://users/42", content: "name=Bob\n" } },
    { id: "w2", name: "write", args: { path: "docs://readme", content: "x" } },
    { id: "e1", name: "edit", args: { path: "db://users/42", oldText: "Bob", newText: "Eve" } },
  ]);
  const request = await s.nova.waitFor((fr) => fr.type === "host_uri_request", from);
  expect(request).toMatchObject({ operation: "write", url: "db://users/42", content: "name=Bob\n" });
  s.nova.send({ type: "host_uri_result", id: request.id });
  await settle(from);
  const [write, readOnly, edit] = ends(from);
  expect(write!.isError).toBe(false);
  expect(readOnly!.isError).toBe(true);
  expect(readOnly!.result.content[0].text).toContain('"docs" scheme without writable');
  expect(edit!.isError).toBe(true);
  expect(edit!.result.content[0].text).toContain("use write");
  expect(s.nova.frames.slice(from).filter((fr) => fr.type === "host_uri_request")).toHaveLength(1);
});

test("an error result becomes a tool error", async () => {
  s = await scenario();
  await s.nova.request({ type: "set_host_uri_schemes", schemes: [{ scheme: "db" }] });
  const from = await run([{ id: "r1", name: "read", args: { path: "db://users/404" } }]);
  const request = await s.nova.waitFor((fr) => fr.type === "host_uri_request", from);
  s.nova.send({ type: "host_uri_result", id: request.id, isError: true, error: "row 404 not found" });
  await settle(from);
  expect(ends(from)[0]).toMatchObject({ isError: true });
  expect(ends(from)[0]!.result.content[0].text).toContain("row 404 not found");
});

test("abort sends host_uri_cancel; stdin close fails a pending request", async () => {
  s = await scenario();
  await s.nova.request({ type: "set_host_uri_schemes", schemes: [{ scheme: "db" }] });
  let from = await run([{ id: "r1", name: "read", args: { path: "db://slow" } }], null);
  const request = await s.nova.waitFor((fr) => fr.type === "host_uri_request", from);
  await s.nova.request({ type: "abort" });
  const cancel = await s.nova.waitFor((fr) => fr.type === "host_uri_cancel", from);
  expect(cancel.targetId).toBe(request.id);
  await settle(from);

  from = await run([{ id: "r2", name: "read", args: { path: "db://slow2" } }], null);
  await s.nova.waitFor((fr) => fr.type === "host_uri_request", from);
  s.nova.closeStdin();
  expect(await s.nova.exited).toBe(0);
  expect(ends(from)[0]!.isError).toBe(true);
});
