/** ACP session/prompt with `_meta["nova/run"]`: an output schema, budgets, and usage_update with the real cost. */
import { afterEach, expect, test } from "bun:test";
import { f, startAcp, type AcpNova } from "./client.ts";

let n: AcpNova | undefined;
afterEach(async () => {
  await n?.close();
  n = undefined;
});

const schema = { type: "object", properties: { answer: { type: "integer" } }, required: ["answer"] };
const pricey = { costs: { "test/m1": { input: 1000, output: 2000, cacheRead: 0, cacheWrite: 0 } } };

test("outputSchema in _meta: the answer that meets it comes back in the response's _meta", async () => {
  n = await startAcp({ extra: pricey });
  await n.initialize();
  const { sessionId } = await n.conn.newSession({ cwd: n.cwd, mcpServers: [] });
  n.server.enqueue(f.text('{"answer":"many"}'), f.text('{"answer":7}'));
  const answer = await n.conn.prompt({ sessionId, prompt: [{ type: "text", text: "how many?" }], _meta: { "nova/run": { outputSchema: schema } } });
  expect(answer.stopReason).toBe("end_turn");
  expect(answer._meta).toEqual({ "nova/run": { structuredOutput: { answer: 7 } } });
  expect(n.server.requests[0]!.body.response_format.json_schema.schema).toEqual(schema);
  // two answers of $0.02 each
  const usage = n.client.updates.map((u) => u.update).findLast((u) => u.sessionUpdate === "usage_update") as { cost?: { amount: number; currency: string } };
  expect(usage.cost?.currency).toBe("USD");
  expect(usage.cost?.amount).toBeCloseTo(0.04, 10);
});

test("maxTurns in _meta stops the turn with max_turn_requests; a bad schema is invalid params", async () => {
  n = await startAcp();
  await n.initialize();
  const { sessionId } = await n.conn.newSession({ cwd: n.cwd, mcpServers: [] });
  n.server.enqueue(f.toolCalls([{ id: "c1", name: "ls", args: {} }]), f.text("never asked for"));
  const answer = await n.conn.prompt({ sessionId, prompt: [{ type: "text", text: "go" }], _meta: { "nova/run": { maxTurns: 1 } } });
  expect(answer.stopReason).toBe("max_turn_requests");
  expect(answer._meta).toEqual({ "nova/run": { stopReason: "max_turns" } });
  expect(n.server.requests).toHaveLength(1);
  await expect(n.conn.prompt({ sessionId, prompt: [{ type: "text", text: "x" }], _meta: { "nova/run": { outputSchema: { type: "objekt" } } } })).rejects.toMatchObject({
    code: -32602,
    message: expect.stringContaining("objekt"),
  });
  await expect(n.conn.prompt({ sessionId, prompt: [{ type: "text", text: "x" }], _meta: { "nova/run": { maxTurns: -2 } } })).rejects.toMatchObject({
    code: -32602,
    message: expect.stringContaining("maxTurns"),
  });
});
