/** JSON-RPC framing in acp mode: the rpc scanner's guarantees, with JSON-RPC error codes. */
import { afterEach, expect, test } from "bun:test";
import { spawnNova, type Nova } from "../support/nova.ts";
import { requireBinary, BINARY } from "../support/targets.ts";
import { f, startAcp, type AcpNova } from "./client.ts";

let raw: Nova | undefined;
let n: AcpNova | undefined;
afterEach(async () => {
  await raw?.stop();
  raw = undefined;
  await n?.close();
  n = undefined;
});

const errorFor = (id: number | string | null) => (fr: Record<string, any>) => fr.id === id && fr.error !== undefined;

test("parse errors, invalid requests, unknown methods and bad params get their codes; reading goes on", async () => {
  raw = spawnNova({ args: ["--mode", "acp"] });
  raw.send("{not json");
  raw.sendBytes(new Uint8Array([0x7b, 0xff, 0xfe, 0x7d, 0x0a]));
  raw.send("[1,2]");
  raw.send('"text"');
  raw.send({ jsonrpc: "1.0", id: 5, method: "initialize" });
  raw.send({ jsonrpc: "2.0", id: { no: 1 }, method: "initialize" });
  raw.send({ jsonrpc: "2.0", id: 7, method: "session/fly", params: {} });
  raw.send({ jsonrpc: "2.0", id: 8, method: "initialize", params: { protocolVersion: "one" } });
  raw.send({ jsonrpc: "2.0", id: 9, method: "session/prompt", params: { sessionId: "s", prompt: [{ type: "text" }] } });
  raw.send({ jsonrpc: "2.0", method: "session/cancel", params: { sessionId: "nobody" } });
  raw.send({ jsonrpc: "2.0", id: "last", method: "initialize", params: { protocolVersion: 1 } });
  const last = await raw.waitFor((fr) => fr.id === "last");
  expect(last.result.protocolVersion).toBe(1);
  const nullErrors = raw.frames.filter((fr) => fr.id === null).map((fr) => fr.error.code);
  expect(nullErrors).toEqual([-32700, -32700, -32600, -32600, -32600]);
  expect(raw.frames.find(errorFor(null))!.error.message).toMatch(/^Parse error: /);
  expect(raw.frames.find(errorFor(5))!.error).toMatchObject({ code: -32600, message: expect.stringContaining('jsonrpc must be "2.0"') });
  expect(raw.frames.find(errorFor(7))!.error).toEqual({ code: -32601, message: "Method not found: session/fly" });
  expect(raw.frames.find(errorFor(8))!.error).toMatchObject({ code: -32602, message: expect.stringContaining("params.protocolVersion must be a number") });
  expect(raw.frames.find(errorFor(9))!.error).toMatchObject({ code: -32602, message: expect.stringContaining("params.prompt[0].text is required") });
  expect(raw.frames.every((fr) => fr.jsonrpc === "2.0")).toBe(true);
  expect(raw.frames).toHaveLength(10);
});

test("a record over 8 MiB is a parse error and the next record is still served", async () => {
  raw = spawnNova({ args: ["--mode", "acp"] });
  const big = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: 1, pad: "x".repeat(8 * 1024 * 1024) } });
  raw.send(big);
  raw.send({ jsonrpc: "2.0", id: 2, method: "initialize", params: { protocolVersion: 1 } });
  await raw.waitFor((fr) => fr.id === 2);
  expect(raw.frames[0]).toEqual({ jsonrpc: "2.0", id: null, error: { code: -32700, message: `Parse error: record exceeds 8 MiB limit (${big.length} bytes)` } });
});

test("stdin closing ends a running prompt as cancelled and nova exits 0", async () => {
  n = await startAcp();
  await n.initialize();
  const { sessionId } = await n.conn.newSession({ cwd: n.cwd, mcpServers: [] });
  n.server.enqueue(f.text("never finishes", { end: "stall", keep: 3 }));
  const prompt = n.conn.prompt({ sessionId, prompt: [{ type: "text", text: "hi" }] });
  await n.client.waitForUpdate((u) => u.update.sessionUpdate === "agent_message_chunk");
  n.proc.stdin.end();
  expect((await prompt).stopReason).toBe("cancelled");
  expect(await n.proc.exited).toBe(0);
});

test("the compiled binary speaks acp: initialize, new session, a prompt", async () => {
  requireBinary();
  n = await startAcp({ binary: BINARY });
  expect((await n.initialize()).protocolVersion).toBe(1);
  const { sessionId } = await n.conn.newSession({ cwd: n.cwd, mcpServers: [] });
  n.server.enqueue(f.text("from the binary"));
  expect((await n.conn.prompt({ sessionId, prompt: [{ type: "text", text: "hi" }] })).stopReason).toBe("end_turn");
  expect(n.client.text("agent_message_chunk")).toBe("from the binary");
});
