/** Per-prompt budgets through the process: max_turns, max_cost, max_tokens, the 80 % warning, sub-agents, config defaults. */
import { describe, expect, test } from "bun:test";
import { apis, fixturesFor, promptAndSettle, scenarios } from "../support/scenario.ts";
import type { Frame } from "../support/nova.ts";

const open = scenarios();
const ls = (id: string) => ({ id, name: "ls", args: {} });
// $1000 / $2000 per million: a turn of 10 input and 5 output tokens costs $0.01 + $0.01
const pricey = { costs: { "test/m1": { input: 1000, output: 2000, cacheRead: 0, cacheWrite: 0 } } };
const of = (frames: Frame[], type: string) => frames.filter((f) => f.type === type);
const end = (frames: Frame[]) => of(frames, "agent_end")[0]!;

describe("budgets", () => {
  test.each(apis)("%s: maxTurns stops before the next model request, with a warning at 80 %", async (api) => {
    const s = await open({ api });
    const f = fixturesFor[api];
    s.server.enqueue(f.toolCalls([ls("c1")]), f.toolCalls([ls("c2")]), f.text("never asked for"));
    const frames = await promptAndSettle(s.nova, "list twice", { maxTurns: 2 });
    expect(end(frames).stopReason).toBe("max_turns");
    expect(s.server.requests).toHaveLength(2);
    expect(of(frames, "budget_warning")).toEqual([{ type: "budget_warning", kind: "turns", used: 2, limit: 2 }]);
    // both tool batches ran and their results stay in the context
    expect(of(frames, "turn_end")).toHaveLength(2);
    expect(of(frames, "tool_execution_end")).toHaveLength(2);
  });

  test("maxCostUsd counts the real cost (config costs override), and get_session_stats agrees", async () => {
    const s = await open({ extra: pricey });
    const f = fixturesFor["openai-chat"];
    s.server.enqueue(f.toolCalls([ls("c1")]), f.toolCalls([ls("c2")]), f.text("never asked for"));
    const frames = await promptAndSettle(s.nova, "spend", { maxCostUsd: 0.03 });
    expect(end(frames).stopReason).toBe("max_cost");
    const answers = of(frames, "message_end").filter((fr) => fr.message.role === "assistant");
    for (const a of answers) {
      expect(a.message.usage.cost.input).toBeCloseTo(0.01, 10);
      expect(a.message.usage.cost.output).toBeCloseTo(0.01, 10);
      expect(a.message.usage.cost.total).toBeCloseTo(0.02, 10);
    }
    const [warning] = of(frames, "budget_warning");
    expect(warning).toMatchObject({ kind: "cost", limit: 0.03 });
    expect(warning!.used).toBeCloseTo(0.04, 10);
    const stats = (await s.nova.request({ type: "get_session_stats" })).data;
    expect(stats.cost).toBeCloseTo(0.04, 10);
  });

  test("maxTokens counts every token of the run; a run that ends by itself has no stopReason", async () => {
    const s = await open();
    const f = fixturesFor["openai-chat"];
    s.server.enqueue(f.toolCalls([ls("c1")]), f.toolCalls([ls("c2")]), f.text("never asked for"));
    const frames = await promptAndSettle(s.nova, "count", { maxTokens: 20 });
    expect(end(frames).stopReason).toBe("max_tokens");
    expect(of(frames, "budget_warning")).toEqual([{ type: "budget_warning", kind: "tokens", used: 30, limit: 20 }]);
    s.server.enqueue(f.text("short"));
    const next = await promptAndSettle(s.nova, "again", { maxTokens: 1000 });
    expect("stopReason" in end(next)).toBe(false);
    expect(of(next, "budget_warning")).toEqual([]);
  });

  test("a sub-agent charges its parent's budget: the child stops, then the parent", async () => {
    const s = await open({ extra: pricey });
    const f = fixturesFor["openai-chat"];
    s.server.enqueue(f.toolCalls([{ id: "k1", name: "task", args: { task: "look around" } }]), f.toolCalls([ls("c1")]), f.toolCalls([ls("c2")]), f.text("never asked for"));
    const frames = await promptAndSettle(s.nova, "delegate", { maxCostUsd: 0.05 });
    // parent turn ($0.02) + two child turns ($0.04): the child stops before its third request, the parent before its second
    expect(s.server.requests).toHaveLength(3);
    expect(end(frames).stopReason).toBe("max_cost");
    const task = of(frames, "tool_execution_end").find((fr) => fr.toolName === "task")!;
    expect(task.isError).toBe(true);
    expect(task.result.content[0].text).toContain("max_cost");
    // the warning came once, from the shared budget, when the child passed $0.04
    const warnings = of(frames, "budget_warning");
    expect(warnings).toHaveLength(1);
    expect(warnings[0]!.used).toBeCloseTo(0.04, 10);
    const list = (await s.nova.request({ type: "get_subagents" })).data.subagents;
    expect(list[0].status).toBe("failed");
  });

  test("config limits apply to prompts that set none; a prompt's own win", async () => {
    const s = await open({ extra: { limits: { maxTurns: 1 } } });
    const f = fixturesFor["openai-chat"];
    s.server.enqueue(f.toolCalls([ls("c1")]), f.toolCalls([ls("c2")]), f.text("done"));
    expect(end(await promptAndSettle(s.nova, "one")).stopReason).toBe("max_turns");
    expect(s.server.requests).toHaveLength(1);
    const own = await promptAndSettle(s.nova, "more", { maxTurns: 5 });
    expect("stopReason" in end(own)).toBe(false);
    expect(s.server.requests).toHaveLength(3);
  });

  test.each([
    [{ maxTurns: 0 }, "maxTurns"],
    [{ maxTurns: 1.5 }, "maxTurns"],
    [{ maxCostUsd: -1 }, "maxCostUsd"],
    [{ maxTokens: "many" }, "maxTokens"],
  ])("a bad limit %p is refused, naming %s", async (fields, name) => {
    const s = await open();
    const r = await s.nova.request({ type: "prompt", message: "x", ...fields });
    expect(r.success).toBe(false);
    expect(r.error).toContain(name);
    expect(s.server.requests).toHaveLength(0);
    const alive = await s.nova.request({ type: "get_state" });
    expect(alive.success).toBe(true);
  });
});
