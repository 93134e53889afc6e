/**
 * `--print-schema` (from the binary when built, else from source) is one JSON
 * Schema 2020-12 document that describes what nova really reads and writes: a
 * long session's frames, in both directions, are checked against its `Frame`,
 * `Command` and `Reply` unions with Ajv in strict mode, and every success
 * response's data against its command's `<Name>Data`.
 */
import { expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import Ajv2020 from "./generators/node_modules/ajv/dist/2020.js";
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
  const ajv = new Ajv2020({ strict: true });
  ajv.addSchema(schema, "nova");
  const check = (def: string, value: unknown, what: string) => {
    const validate = ajv.getSchema(`nova#/$defs/${def}`);
    if (!validate) throw new Error(`no $defs/${def}`);
    if (!validate(value)) throw new Error(`${what} does not fit ${def}: ${ajv.errorsText(validate.errors)}\n${JSON.stringify(value).slice(0, 400)}`);
  };
  const pascal = (snake: string) => snake.replace(/(^|_)([a-z])/g, (_, __, c: string) => c.toUpperCase());

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
    s.server.enqueue(f.text("handoff summary"));
    for (const type of [
      "get_state",
      "get_messages",
      "get_session_stats",
      "get_available_models",
      "get_fork_messages",
      "get_branch_messages",
      "get_entries",
      "get_tree",
      "get_checkpoints",
      "get_commands",
      "get_available_commands",
      "get_mcp_servers",
      "get_subagents",
      "get_login_providers",
      "get_available_thinking_levels",
      "get_last_assistant_text",
      "get_background_sessions",
      "cycle_thinking_level",
      "cycle_model",
      "clear_queue",
      "abort",
      "nope",
    ]) {
      await send({ type });
    }
    await send({ type: "set_model", provider: "test", modelId: "m1" });
    await send({ type: "set_session_name", name: "schema run" });
    await send({ type: "set_host_uri_schemes", schemes: [{ scheme: "db" }] });
    await send({ type: "bash", command: "echo hi", id: 7 });
    await send({ type: "export_html", outputPath: join(s.cwd, "out.html") });
    const entries = (await send({ type: "get_entries" })).data.entries;
    const user = entries.find((e: any) => e.type === "message" && e.message.role === "user");
    await send({ type: "get_turn_changes", entryId: user.id });
    await send({ type: "revert", entryId: user.id, dryRun: true });
    await send({ type: "branch", entryId: user.id });
    await send({ type: "clone" });
    await send({ type: "new_session" });
    await send({ type: "set_steering_mode", mode: "bogus" });
    await send({ id: true, type: "get_state" });

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
      "bash_execution_update",
    ]) {
      expect(kinds).toContain(kind);
    }
    expect(frames.length).toBeGreaterThan(100);
    const answered = new Set<string>();
    for (const frame of frames) {
      check("Frame", frame, frame.type);
      if (frame.type === "response" && frame.success) {
        answered.add(frame.command);
        if ("data" in frame) check(`${pascal(frame.command)}Data`, frame.data, `${frame.command}'s data`);
        else expect(schema.$defs[`${pascal(frame.command)}Data`]).toBeUndefined();
      }
    }
    // the session above answered most commands with success; each was checked against its own data schema
    expect(answered.size).toBeGreaterThan(35);
    for (const frame of sent.filter((fr) => fr.type !== "nope" && fr.mode !== "bogus" && fr.id !== true)) check("Inbound", frame, frame.type);
    expect(ajv.validate("nova#/$defs/Command", { type: "set_steering_mode", mode: "bogus" })).toBe(false);
    expect(ajv.validate("nova#/$defs/Command", { type: "nope" })).toBe(false);
  } finally {
    await s.close();
  }
});
