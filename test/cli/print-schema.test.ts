/**
 * `--print-schema` (from the binary when built, else from source) describes
 * what nova really reads and writes: a representative session's frames, in
 * both directions, are checked against the printed JSON Schema.
 */
import { expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { z } from "zod";
import { command } from "../support/nova.ts";
import { promptAndSettle, scenario } from "../support/scenario.ts";
import { fixtures } from "../support/fixtures/index.ts";
import { BINARY } from "../support/targets.ts";

const f = fixtures.openaiChat;

async function printedSchema(): Promise<any> {
  const proc = Bun.spawn([...command({ binary: (await Bun.file(BINARY).exists()) ? BINARY : undefined }), "--print-schema"], { stdout: "pipe" });
  const text = await new Response(proc.stdout).text();
  expect(await proc.exited).toBe(0);
  return JSON.parse(text);
}

test("the printed schema validates every frame of a representative session", async () => {
  const schema = await printedSchema();
  const validators = new Map<string, z.ZodType>();
  const validator = (group: "events" | "commands", type: string) => {
    const key = `${group}:${type}`;
    if (!validators.has(key)) {
      expect(schema[group][type]).toBeDefined();
      validators.set(key, z.fromJSONSchema(schema[group][type]));
    }
    return validators.get(key)!;
  };

  const s = await scenario({ reasoning: true, extra: { compaction: { enabled: true, reserveTokens: 100, keepRecentTokens: 10 } } });
  const sent: Record<string, any>[] = [];
  const send = (frame: Record<string, any>) => (sent.push(frame), s.nova.request(frame));
  try {
    writeFileSync(join(s.cwd, "a.txt"), "alpha\n");
    await send({ type: "set_host_tools", tools: [{ name: "echo_host", description: "echo", parameters: { type: "object", properties: { m: { type: "string" } } } }] });
    await send({ type: "set_subagent_subscription", level: "events" });
    await send({ type: "set_todos", phases: [{ name: "P", tasks: [{ content: "t", status: "completed" }] }] });
    s.server.enqueue(
      fixtures.httpError(429, { error: { message: "busy" } }, { "retry-after": "0" }),
      f.turn([{ thinking: "hmm" }, { toolCall: { id: "r1", name: "read", args: { path: "a.txt" } } }]),
      f.toolCalls([{ id: "h1", name: "echo_host", args: { m: "x" } }]),
      f.toolCalls([{ id: "k1", name: "task", args: { task: "child work" } }]),
      f.text("child answer"),
      f.toolCalls([{ id: "b1", name: "bash", args: { command: "rm -rf ./nothing-here" } }]),
      f.text("all done " + "x".repeat(200)),
    );
    const from = s.nova.frames.length;
    sent.push({ type: "prompt", message: "go" });
    await s.nova.request({ type: "prompt", message: "go" });
    const call = await s.nova.waitFor((fr) => fr.type === "host_tool_call", from);
    s.nova.send({ type: "host_tool_update", id: call.id, partialResult: { content: [{ type: "text", text: "..." }] } });
    s.nova.send({ type: "host_tool_result", id: call.id, result: { content: [{ type: "text", text: "echoed" }] } });
    const permission = await s.nova.waitFor((fr) => fr.type === "permission_request", from);
    await send({ type: "follow_up", message: "later" });
    await send({ type: "permission_response", requestId: permission.requestId, approved: true });
    s.server.enqueue(f.text("follow-up answer"));
    await s.nova.waitFor((fr) => fr.type === "agent_settled", from);
    s.server.enqueue(f.text("SUMMARY"));
    await send({ type: "compact" });
    s.server.enqueue(f.text("x"));
    await promptAndSettle(s.nova, "more");
    for (const type of ["get_state", "get_messages", "get_session_stats", "get_available_models", "get_fork_messages", "nope"]) await send({ type });
    await send({ type: "set_steering_mode", mode: "bogus" });

    const frames = s.nova.frames;
    const kinds = new Set(frames.map((fr) => fr.type));
    for (const kind of [
      "ready",
      "response",
      "message_update",
      "tool_execution_update",
      "host_tool_call",
      "permission_request",
      "auto_retry_start",
      "subagent_event",
      "queue_update",
      "compaction_end",
      "extension_ui_request",
    ]) {
      expect(kinds).toContain(kind);
    }
    for (const frame of frames) {
      const result = validator("events", frame.type).safeParse(frame);
      if (!result.success) throw new Error(`${frame.type} does not fit the schema: ${JSON.stringify(result.error.issues[0])}\n${JSON.stringify(frame).slice(0, 400)}`);
    }
    for (const frame of sent.filter((fr) => fr.type !== "nope" && fr.mode !== "bogus")) {
      expect(validator("commands", frame.type).safeParse(frame).success).toBe(true);
    }
    expect(validator("commands", "set_steering_mode").safeParse({ type: "set_steering_mode", mode: "bogus" }).success).toBe(false);
  } finally {
    await s.close();
  }
});
