/**
 * outputSchema through the process on every wire format: native JSON Schema
 * mode on OpenAI chat and Responses, the structured_output tool elsewhere;
 * answers sent back with the validator's errors, the result in agent_end and
 * the final turn_end, a run that gives up, and bad schemas refused.
 */
import { describe, expect, test } from "bun:test";
import { apis, fixturesFor, promptAndSettle, scenarios, type ApiName } from "../support/scenario.ts";
import type { Frame } from "../support/nova.ts";

const open = scenarios();
const schema = {
  type: "object",
  properties: { answer: { type: "integer" }, unit: { type: "string", enum: ["m", "km"] } },
  required: ["answer", "unit"],
  additionalProperties: false,
};
const native = (api: ApiName) => api === "openai-chat" || api === "openai-responses";
const of = (frames: Frame[], type: string) => frames.filter((f) => f.type === type);

/** the tools a request offered, by name, whatever the wire format */
function toolNames(body: any): string[] {
  const tools = body.tools ?? [];
  return tools.flatMap((t: any) => t.functionDeclarations?.map((d: any) => d.name) ?? [t.function?.name ?? t.name]);
}

/** three answers: two that miss the schema, then one that meets it */
function failTwiceThenMeet(api: ApiName) {
  const f = fixturesFor[api];
  if (native(api)) return [f.text("Sure! It is 42 km."), f.text('{"answer":"forty-two","unit":"km"}'), f.text('{"answer":42,"unit":"km"}')];
  const call = (id: string, args: Record<string, unknown>) => f.toolCalls([{ id, name: "structured_output", args }]);
  return [call("s1", { answer: 42, unit: "miles" }), f.text("It is 42 km."), call("s3", { answer: 42, unit: "km" })];
}

describe("outputSchema", () => {
  test.each(apis)("%s: the model misses the schema twice, is told why, then meets it", async (api) => {
    const s = await open({ api });
    s.server.enqueue(...failTwiceThenMeet(api));
    const frames = await promptAndSettle(s.nova, "how far?", { outputSchema: schema });
    const end = of(frames, "agent_end")[0]!;
    expect(end.structuredOutput).toEqual({ answer: 42, unit: "km" });
    expect(end.error).toBeUndefined();
    const turns = of(frames, "turn_end");
    expect(turns.at(-1)!.structuredOutput).toEqual({ answer: 42, unit: "km" });
    expect(turns.slice(0, -1).every((t) => !("structuredOutput" in t))).toBe(true);
    expect(s.server.requests).toHaveLength(3);
    const [first, second, third] = s.server.requests.map((r) => r.body);
    const sent = (body: any) => JSON.stringify(body.messages ?? body.input ?? body.contents);
    if (native(api)) {
      const format = api === "openai-chat" ? first.response_format : first.text.format;
      expect(format.type).toBe("json_schema");
      expect(api === "openai-chat" ? format.json_schema.schema : format.schema).toEqual(schema);
      expect(toolNames(first)).not.toContain("structured_output");
      expect(sent(second)).toContain("not JSON");
      expect(sent(third)).toContain("answer");
    } else {
      expect(toolNames(first)).toContain("structured_output");
      expect(sent(second)).toContain("does not match the schema");
      expect(sent(second)).toContain("unit");
      expect(sent(third)).toContain("structured_output tool");
    }
  });

  test.each(["openai-chat", "anthropic"] as const)("%s: a run out of tries ends with agent_end.error naming the last errors", async (api) => {
    const s = await open({ api, extra: { structuredOutput: { maxAttempts: 2 } } });
    const f = fixturesFor[api];
    const miss = (n: number) =>
      native(api) ? f.text(`{"answer":${n},"unit":"parsec"}`) : f.toolCalls([{ id: `s${n}`, name: "structured_output", args: { answer: n, unit: "parsec" } }]);
    s.server.enqueue(miss(1), miss(2), f.text("never asked for"));
    const frames = await promptAndSettle(s.nova, "how far?", { outputSchema: schema });
    const end = of(frames, "agent_end")[0]!;
    expect("structuredOutput" in end).toBe(false);
    expect(end.error).toContain("after 2 attempts");
    expect(end.error).toContain("unit");
    expect(s.server.requests).toHaveLength(2);
  });

  test.each(["openai-responses", "google"] as const)("%s: a schema whose root is not an object is wrapped in {value} and unwrapped", async (api) => {
    const s = await open({ api });
    const f = fixturesFor[api];
    s.server.enqueue(native(api) ? f.text('{"value":["a","b"]}') : f.toolCalls([{ name: "structured_output", args: { value: ["a", "b"] } }]));
    const frames = await promptAndSettle(s.nova, "list", { outputSchema: { type: "array", items: { type: "string" } } });
    expect(of(frames, "agent_end")[0]!.structuredOutput).toEqual(["a", "b"]);
  });

  test("follow_up and abort_and_prompt take an outputSchema too", async () => {
    const s = await open();
    const f = fixturesFor["openai-chat"];
    s.server.enqueue(f.text('{"answer":1,"unit":"m"}'));
    let from = s.nova.frames.length;
    expect((await s.nova.request({ type: "follow_up", message: "one", outputSchema: schema })).success).toBe(true);
    let end = await s.nova.waitFor((fr) => fr.type === "agent_end", from);
    expect(end.structuredOutput).toEqual({ answer: 1, unit: "m" });
    s.server.enqueue(f.text('{"answer":2,"unit":"km"}'));
    from = s.nova.frames.length;
    expect((await s.nova.request({ type: "abort_and_prompt", message: "two", outputSchema: schema })).success).toBe(true);
    end = await s.nova.waitFor((fr) => fr.type === "agent_end", from);
    expect(end.structuredOutput).toEqual({ answer: 2, unit: "km" });
  });

  test("a prompt without outputSchema sends no schema and no structured_output tool", async () => {
    const s = await open();
    s.server.enqueue(fixturesFor["openai-chat"].text("plain"));
    const frames = await promptAndSettle(s.nova, "hi");
    expect("structuredOutput" in of(frames, "agent_end")[0]!).toBe(false);
    expect(s.server.requests[0]!.body.response_format).toBeUndefined();
    expect(toolNames(s.server.requests[0]!.body)).not.toContain("structured_output");
  });

  test.each([
    [{ type: "objekt" }, "objekt"],
    [{ type: "string", pattern: "[" }, "regular expression"],
    [42, "outputSchema"],
    [["a"], "outputSchema"],
  ])("an invalid schema %p is refused at once, naming %s", async (bad, words) => {
    const s = await open();
    for (const type of ["prompt", "follow_up", "abort_and_prompt"]) {
      const r = await s.nova.request({ type, message: "x", outputSchema: bad });
      expect(r.success).toBe(false);
      expect(r.error).toContain("outputSchema");
      expect(r.error).toContain(words);
    }
    expect(s.server.requests).toHaveLength(0);
    expect((await s.nova.request({ type: "get_state" })).data.isStreaming).toBe(false);
  });
});
