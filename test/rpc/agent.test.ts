/** The agent loop through the real process, for every provider's wire format. */
import { describe, expect, test } from "bun:test";
import { readFileSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { apis, cutAfter, outline, promptAndSettle, scenarios } from "../support/scenario.ts";
import { fixtures } from "../support/fixtures/index.ts";
import { startNova, tempDir } from "../support/nova.ts";

const setup = scenarios();

const PNG_1x1 = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==";

describe.each(apis)("agent loop over %s", (api) => {
  test("plain text streams as deltas inside text_start/text_end and ends the run", async () => {
    const s = await setup({ api });
    s.server.enqueue(s.f.text("Hello there, host!"));
    const frames = await promptAndSettle(s.nova, "hi");
    expect(frames[0]).toMatchObject({ type: "response", command: "prompt", success: true });
    expect(outline(frames)).toEqual([
      "agent_start",
      "turn_start",
      "message_start:user",
      "message_end:user",
      "message_start:assistant",
      "message_end:assistant",
      "turn_end",
      "agent_end",
      "agent_settled",
    ]);
    const updates = frames.filter((f) => f.type === "message_update").map((f) => f.assistantMessageEvent);
    expect(updates[0]).toEqual({ type: "text_start", contentIndex: 0 });
    expect(updates.at(-1)).toEqual({ type: "text_end", contentIndex: 0, content: "Hello there, host!" });
    const deltas = updates
      .filter((e) => e.type === "text_delta")
      .map((e) => e.delta)
      .join("");
    expect(deltas).toBe("Hello there, host!");
    // light header by default: no content repeated per delta
    const update = frames.find((f) => f.type === "message_update")!;
    expect(update.message).toEqual({ role: "assistant", provider: "test", model: "m1" });
    const end = frames.find((f) => f.type === "agent_end")!;
    expect(end.messages.map((m: any) => m.role)).toEqual(["user", "assistant"]);
    expect(end.messages[1].content).toMatchObject([{ type: "text", text: "Hello there, host!" }]);
    expect(end.messages[1].usage.input).toBe(10);
    const last = await s.nova.request({ type: "get_last_assistant_text" });
    expect(last.data).toEqual({ text: "Hello there, host!" });
  });

  test("one tool call, then the final text: exact event order", async () => {
    const s = await setup({ api });
    writeFileSync(join(s.cwd, "notes.txt"), "alpha\nbeta\n");
    s.server.enqueue(s.f.toolCalls([{ id: "call_1", name: "read", args: { path: "notes.txt" } }]), s.f.text("It says alpha and beta."));
    const frames = await promptAndSettle(s.nova, "read notes.txt");
    expect(outline(frames)).toEqual([
      "agent_start",
      "turn_start",
      "message_start:user",
      "message_end:user",
      "message_start:assistant",
      "message_end:assistant",
      "tool_execution_start",
      "tool_execution_end",
      "message_start:toolResult",
      "message_end:toolResult",
      "turn_end",
      "turn_start",
      "message_start:assistant",
      "message_end:assistant",
      "turn_end",
      "agent_end",
      "agent_settled",
    ]);
    const start = frames.find((f) => f.type === "tool_execution_start")!;
    expect(start.toolName).toBe("read");
    expect(start.args).toEqual({ path: "notes.txt" });
    const end = frames.find((f) => f.type === "tool_execution_end")!;
    expect(end.isError).toBe(false);
    expect(end.result.content[0].text).toContain("alpha");
    const callEnd = frames.find((f) => f.type === "message_update" && f.assistantMessageEvent.type === "toolcall_end")!;
    expect(callEnd.assistantMessageEvent.toolCall).toMatchObject({ type: "toolCall", name: "read", arguments: { path: "notes.txt" } });
    const turnEnds = frames.filter((f) => f.type === "turn_end");
    expect(turnEnds[0]!.toolResults).toHaveLength(1);
    expect(turnEnds[0]!.turnIndex).toBe(0);
    expect(turnEnds[1]!.turnIndex).toBe(1);
    // the tool result went back to the model on the second request
    expect(JSON.stringify(s.server.requests[1]!.body)).toContain("alpha");
  });

  test("two parallel tool calls both run, in order", async () => {
    const s = await setup({ api });
    writeFileSync(join(s.cwd, "a.txt"), "AAA");
    writeFileSync(join(s.cwd, "b.txt"), "BBB");
    s.server.enqueue(
      s.f.toolCalls([
        { id: "c1", name: "read", args: { path: "a.txt" } },
        { id: "c2", name: "read", args: { path: "b.txt" } },
      ]),
      s.f.text("done"),
    );
    const frames = await promptAndSettle(s.nova, "read both");
    const ends = frames.filter((f) => f.type === "tool_execution_end");
    expect(ends.map((f) => f.result.content[0].text.includes("AAA"))).toEqual([true, false]);
    expect(ends[1]!.result.content[0].text).toContain("BBB");
    const kinds = frames.filter((f) => f.type === "message_update").map((f) => f.assistantMessageEvent.type);
    // a block is closed before the next opens
    expect(kinds.filter((k) => k.endsWith("_start") || k.endsWith("_end"))).toEqual(["toolcall_start", "toolcall_end", "toolcall_start", "toolcall_end", "text_start", "text_end"]);
  });

  test("thinking arrives as a thinking block before the text", async () => {
    const s = await setup({ api, reasoning: true });
    s.server.enqueue(s.f.thinking("Let me consider.", "Answer."));
    const frames = await promptAndSettle(s.nova, "think");
    const bounds = frames.filter((f) => f.type === "message_update" && /_(start|end)$/.test(f.assistantMessageEvent.type)).map((f) => f.assistantMessageEvent);
    expect(bounds).toEqual([
      { type: "thinking_start", contentIndex: 0 },
      { type: "thinking_end", contentIndex: 0, content: "Let me consider." },
      { type: "text_start", contentIndex: 1 },
      { type: "text_end", contentIndex: 1, content: "Answer." },
    ]);
  });

  test("an image in the prompt reaches the request body in the provider's shape", async () => {
    const s = await setup({ api });
    s.server.enqueue(s.f.text("a pixel"));
    await promptAndSettle(s.nova, "what is this?", { images: [{ type: "image", data: PNG_1x1, mimeType: "image/png" }] });
    const body = JSON.stringify(s.server.requests[0]!.body);
    expect(body).toContain(PNG_1x1);
  });

  test("429 then success: retry events, then the answer", async () => {
    const s = await setup({ api });
    s.server.enqueue(fixtures.httpError(429, { error: { message: "rate limited" } }, { "retry-after": "0" }), s.f.text("ok now"));
    const frames = await promptAndSettle(s.nova, "hi");
    const retry = frames.filter((f) => f.type.startsWith("auto_retry"));
    expect(retry.map((f) => f.type)).toEqual(["auto_retry_start", "auto_retry_end"]);
    expect(retry[0]).toMatchObject({ attempt: 1, maxAttempts: 3 });
    expect(retry[1]).toMatchObject({ success: true, attempt: 1 });
    expect(frames.find((f) => f.type === "agent_end")!.messages.at(-1).content[0].text).toBe("ok now");
  });

  test("500 on every attempt gives up with stopReason error", async () => {
    const s = await setup({ api });
    for (let i = 0; i < 4; i++) s.server.enqueue(fixtures.httpError(500, { error: { message: "boom" } }));
    const frames = await promptAndSettle(s.nova, "hi");
    expect(frames.filter((f) => f.type === "auto_retry_start")).toHaveLength(3);
    expect(frames.find((f) => f.type === "auto_retry_end")).toMatchObject({ success: false, attempt: 3 });
    const end = frames.find((f) => f.type === "message_end" && f.message.role === "assistant")!;
    expect(end.message.stopReason).toBe("error");
    expect(end.message.errorMessage).toContain("boom");
    expect(s.server.requests).toHaveLength(4);
  });

  test("a connection dropped mid-stream ends the turn with error, the partial text kept", async () => {
    const s = await setup({ api });
    s.server.enqueue(cutAfter(s.f.text("Xyzzy answer that goes on"), "Xyzz", "drop"));
    const frames = await promptAndSettle(s.nova, "hi");
    const end = frames.find((f) => f.type === "message_end" && f.message.role === "assistant")!;
    expect(end.message.stopReason).toBe("error");
    expect(end.message.content[0]?.text?.length ?? 0).toBeGreaterThan(0);
    expect(frames.filter((f) => f.type === "agent_end")).toHaveLength(1);
  });

  test("a stalled stream fails the turn with a clear error", async () => {
    const s = await setup({ api, extra: { stream: { idleTimeoutMs: 300 }, retry: { enabled: false } } });
    s.server.enqueue(cutAfter(s.f.text("Xyzzy never finishes"), "Xyzz", "stall"));
    const frames = await promptAndSettle(s.nova, "hi");
    const end = frames.find((f) => f.type === "message_end" && f.message.role === "assistant")!;
    expect(end.message.stopReason).toBe("error");
    expect(end.message.errorMessage).toMatch(/stall/i);
  });

  test("abort during streaming ends with one agent_end and settles; the next prompt works", async () => {
    const s = await setup({ api });
    s.server.enqueue(cutAfter(s.f.text("Xyzzy streaming forever"), "Xyzz", "stall"), s.f.text("second"));
    const from = s.nova.frames.length;
    await s.nova.request({ type: "prompt", message: "go" });
    await s.nova.waitFor((f) => f.type === "message_update", from);
    expect((await s.nova.request({ type: "abort" })).success).toBe(true);
    await s.nova.waitFor((f) => f.type === "agent_settled", from);
    const frames = s.nova.frames.slice(from);
    expect(frames.filter((f) => f.type === "agent_start")).toHaveLength(1);
    expect(frames.filter((f) => f.type === "agent_end")).toHaveLength(1);
    expect(frames.find((f) => f.type === "message_end" && f.message.role === "assistant")!.message.stopReason).toBe("aborted");
    const next = await promptAndSettle(s.nova, "again");
    expect(next.find((f) => f.type === "agent_end")!.messages.at(-1).content[0].text).toBe("second");
  });
});

describe("abort", () => {
  test("during a tool: the bash child is stopped and the run ends", async () => {
    const s = await setup();
    s.server.enqueue(fixtures.openaiChat.toolCalls([{ id: "b1", name: "bash", args: { command: "sleep 30" } }]), fixtures.openaiChat.text("after"));
    const from = s.nova.frames.length;
    await s.nova.request({ type: "prompt", message: "sleep" });
    await s.nova.waitFor((f) => f.type === "tool_execution_start", from);
    const started = Date.now();
    await s.nova.request({ type: "abort" });
    await s.nova.waitFor((f) => f.type === "agent_settled", from);
    expect(Date.now() - started).toBeLessThan(5000);
    const end = s.nova.frames.slice(from).find((f) => f.type === "tool_execution_end")!;
    expect(end.isError).toBe(true);
    expect(s.nova.frames.slice(from).filter((f) => f.type === "agent_end")).toHaveLength(1);
    const next = await promptAndSettle(s.nova, "again");
    expect(next.find((f) => f.type === "agent_end")!.messages.at(-1).content[0].text).toBe("after");
  });

  test("during retry backoff: abort ends the wait at once", async () => {
    const s = await setup({ extra: { retry: { enabled: true, maxRetries: 3, baseDelayMs: 30000, maxDelayMs: 60000 } } });
    s.server.enqueue(fixtures.httpError(503, { error: { message: "unavailable" } }), fixtures.openaiChat.text("later"));
    const from = s.nova.frames.length;
    await s.nova.request({ type: "prompt", message: "hi" });
    await s.nova.waitFor((f) => f.type === "auto_retry_start", from);
    await s.nova.request({ type: "abort" });
    await s.nova.waitFor((f) => f.type === "agent_settled", from);
    const frames = s.nova.frames.slice(from);
    expect(frames.find((f) => f.type === "auto_retry_end")).toMatchObject({ success: false });
    expect(frames.find((f) => f.type === "message_end" && f.message.role === "assistant")!.message.stopReason).toBe("aborted");
    const next = await promptAndSettle(s.nova, "again");
    expect(next.find((f) => f.type === "agent_end")!.messages.at(-1).content[0].text).toBe("later");
  });

  test("abort_retry stops the backoff and the turn fails with the provider's error", async () => {
    const s = await setup({ extra: { retry: { enabled: true, maxRetries: 3, baseDelayMs: 30000, maxDelayMs: 60000 } } });
    s.server.enqueue(fixtures.httpError(503, { error: { message: "unavailable" } }));
    const from = s.nova.frames.length;
    await s.nova.request({ type: "prompt", message: "hi" });
    await s.nova.waitFor((f) => f.type === "auto_retry_start", from);
    await s.nova.request({ type: "abort_retry" });
    await s.nova.waitFor((f) => f.type === "agent_settled", from);
    const end = s.nova.frames.slice(from).find((f) => f.type === "message_end" && f.message.role === "assistant")!;
    expect(end.message.stopReason).toBe("error");
    expect(end.message.errorMessage).toContain("unavailable");
  });

  test("set_auto_retry false: a 429 is final at once", async () => {
    const s = await setup();
    await s.nova.request({ type: "set_auto_retry", enabled: false });
    s.server.enqueue(fixtures.httpError(429, { error: { message: "slow down" } }));
    const frames = await promptAndSettle(s.nova, "hi");
    expect(frames.filter((f) => f.type.startsWith("auto_retry"))).toEqual([]);
    expect(s.server.requests).toHaveLength(1);
  });
});

describe("limits and accounting", () => {
  test("a tool call cut off by the output token limit is not executed", async () => {
    const s = await setup();
    writeFileSync(join(s.cwd, "big.txt"), "x");
    s.server.enqueue(
      fixtures.openaiChat.toolCalls([{ id: "l1", name: "write", args: { path: "big.txt", content: "half" } }], { stop: "length" }),
      fixtures.openaiChat.text("sorry"),
    );
    const frames = await promptAndSettle(s.nova, "write it");
    const end = frames.find((f) => f.type === "tool_execution_end")!;
    expect(end.isError).toBe(true);
    expect(end.result.content[0].text).toContain("output token limit");
    expect(Bun.file(join(s.cwd, "big.txt")).size).toBe(1);
    expect(frames.find((f) => f.type === "message_end" && f.message.role === "assistant")!.message.stopReason).toBe("length");
  });

  test("usage and cost are accounted per message from the model's prices", async () => {
    const s = await setup({ model: { cost: { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 } } });
    s.server.enqueue(fixtures.openaiChat.text("priced", { usage: { input: 1000, output: 100 } }));
    const frames = await promptAndSettle(s.nova, "hi");
    const usage = frames.find((f) => f.type === "message_end" && f.message.role === "assistant")!.message.usage;
    expect(usage).toMatchObject({ input: 1000, output: 100, totalTokens: 1100 });
    expect(usage.cost.input).toBeCloseTo(0.003, 9);
    expect(usage.cost.output).toBeCloseTo(0.0015, 9);
    expect(usage.cost.total).toBeCloseTo(0.0045, 9);
    const stats = (await s.nova.request({ type: "get_session_stats" })).data;
    expect(stats.cost).toBeCloseTo(0.0045, 9);
  });
});

describe("secrets", () => {
  test("a provider error that echoes the API key is redacted everywhere nova writes it", async () => {
    const dir = tempDir("nova-secret-");
    const s = await setup({ args: ["--session-dir", dir], extra: { retry: { enabled: true, maxRetries: 1, baseDelayMs: 1, maxDelayMs: 1 } } });
    const echo = { error: { message: "Incorrect API key provided: sk-test-secret-key-123456 (try another)" } };
    s.server.enqueue(fixtures.httpError(503, echo), fixtures.httpError(401, echo));
    const frames = await promptAndSettle(s.nova, "hi");
    const stdout = JSON.stringify(frames);
    expect(stdout).toContain("Incorrect API key provided");
    expect(stdout).not.toContain("sk-test-secret-key-123456");
    const text = readdirSync(dir)
      .map((f) => readFileSync(join(dir, f), "utf8"))
      .join("");
    expect(text).toContain("Incorrect API key provided");
    expect(text).not.toContain("sk-test-secret-key-123456");
    expect(s.nova.stderr).not.toContain("sk-test-secret-key-123456");
  });
});

describe("no model configured", () => {
  test("a prompt is accepted and fails on the event stream with a clear error", async () => {
    const nova = await startNova({ args: ["--no-session"] });
    try {
      const state = await nova.request({ type: "get_state" });
      expect(state.data.model).toBeNull();
      const models = await nova.request({ type: "get_available_models" });
      expect(models.data).toEqual({ models: [] });
      const frames = await promptAndSettle(nova, "hello");
      const end = frames.find((f) => f.type === "message_end" && f.message.role === "assistant")!;
      expect(end.message.stopReason).toBe("error");
      expect(end.message.errorMessage).toContain("No model configured");
      expect(frames.filter((f) => f.type === "agent_end")).toHaveLength(1);
    } finally {
      await nova.stop();
    }
  });
});
