/** Sessions that last, through the real process: PROTOCOL.md §4 Session and Compaction. */
import { describe, expect, test } from "bun:test";
import { readFileSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { cutAfter, promptAndSettle, scenarios } from "../support/scenario.ts";
import { fixtures } from "../support/fixtures/index.ts";
import { tempDir } from "../support/nova.ts";

const setup = scenarios();
const f = fixtures.openaiChat;
const PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==";

function sessionFiles(dir: string): string[] {
  return readdirSync(dir)
    .filter((n) => n.endsWith(".jsonl"))
    .map((n) => join(dir, n));
}

describe("persistence", () => {
  test("a fresh process that switches to a session gets identical messages", async () => {
    const dir = tempDir("nova-sessions-");
    const cwd = tempDir("nova-cwd-");
    writeFileSync(join(cwd, "a.txt"), "hello file");
    const first = await setup({ args: ["--session-dir", dir], cwd });
    first.server.enqueue(f.toolCalls([{ id: "c1", name: "read", args: { path: "a.txt" } }]), f.text("It says hello."), f.text("Second answer."));
    await promptAndSettle(first.nova, "read a.txt");
    await promptAndSettle(first.nova, "and again");
    await first.nova.request({ type: "set_session_name", name: "my work" });
    const before = await first.nova.request({ type: "get_messages" });
    const state = await first.nova.request({ type: "get_state" });
    expect(before.data.messages.map((m: any) => m.role)).toEqual(["user", "assistant", "toolResult", "assistant", "user", "assistant"]);
    expect(state.data.sessionFile).toStartWith(dir);

    const second = await setup({ args: ["--session-dir", dir], cwd });
    expect((await second.nova.request({ type: "get_messages" })).data.messages).toEqual([]);
    const switched = await second.nova.request({ type: "switch_session", sessionId: state.data.sessionId });
    expect(switched).toMatchObject({ success: true, data: { cancelled: false } });
    const after = await second.nova.request({ type: "get_messages" });
    expect(after.data.messages).toEqual(before.data.messages);
    const state2 = await second.nova.request({ type: "get_state" });
    expect(state2.data).toMatchObject({ sessionId: state.data.sessionId, sessionName: "my work", messageCount: 6 });

    const byPath = await setup({ args: ["--no-session"], cwd });
    await byPath.nova.request({ type: "switch_session", sessionPath: state.data.sessionFile });
    expect((await byPath.nova.request({ type: "get_messages" })).data.messages).toEqual(before.data.messages);
  });

  test("an unknown session id is a clear error", async () => {
    const s = await setup();
    const r = await s.nova.request({ type: "switch_session", sessionId: "nope" });
    expect(r).toMatchObject({ success: false, error: "Session not found: nope" });
  });

  test("a host that only asks for state leaves no session file behind", async () => {
    const dir = tempDir("nova-sessions-");
    const s = await setup({ args: ["--session-dir", dir] });
    await s.nova.request({ type: "get_state" });
    expect(sessionFiles(dir)).toEqual([]);
  });

  test("kill -9 during a streamed turn loses nothing an event had announced", async () => {
    const dir = tempDir("nova-sessions-");
    const s = await setup({ args: ["--session-dir", dir] });
    s.server.enqueue(f.text("First answer."), cutAfter(f.text("Xyzzy never ends"), "Xyzz", "stall"));
    await promptAndSettle(s.nova, "one");
    const from = s.nova.frames.length;
    await s.nova.request({ type: "prompt", message: "two" });
    await s.nova.waitFor((fr) => fr.type === "message_update", from);
    s.nova.proc.kill("SIGKILL");
    await s.nova.exited;
    const announced = s.nova.frames.filter((fr) => fr.type === "message_end").map((fr) => fr.message);
    const [file] = sessionFiles(dir);
    const reader = await setup({ args: ["--no-session"] });
    await reader.nova.request({ type: "switch_session", sessionPath: file });
    const messages = (await reader.nova.request({ type: "get_messages" })).data.messages;
    expect(messages).toEqual(announced);
    expect(messages.map((m: any) => m.role)).toEqual(["user", "assistant", "user"]);
  });
});

describe("repair", () => {
  test("a session file cut at every byte offset of its last entry loads every earlier entry", async () => {
    const dir = tempDir("nova-sessions-");
    const writer = await setup({ args: ["--session-dir", dir] });
    writer.server.enqueue(f.text("first answer"), f.text("second answer ☃ with more text"));
    await promptAndSettle(writer.nova, "one");
    await promptAndSettle(writer.nova, "two");
    const full = (await writer.nova.request({ type: "get_messages" })).data.messages;
    const text = readFileSync(sessionFiles(dir)[0]!);
    const lastStart = text.subarray(0, text.length - 1).lastIndexOf(0x0a) + 1;
    const reader = await setup({ args: ["--no-session"] });
    const cut = join(tempDir("nova-cut-"), "cut.jsonl");
    const load = async (end: number) => {
      writeFileSync(cut, text.subarray(0, end));
      const r = await reader.nova.request({ type: "switch_session", sessionPath: cut });
      expect(r.success).toBe(true);
      return (await reader.nova.request({ type: "get_messages" })).data.messages;
    };
    for (let end = lastStart; end < text.length - 1; end++) expect(await load(end)).toEqual(full.slice(0, -1));
    expect(reader.nova.stderr).toContain("cut.jsonl");
    // only the LF missing: the entry itself is whole and loads
    expect(await load(text.length - 1)).toEqual(full);
  });
});

describe("branch", () => {
  test("branching at a user message continues from before it; the old branch stays in the file", async () => {
    const dir = tempDir("nova-sessions-");
    const s = await setup({ args: ["--session-dir", dir] });
    s.server.enqueue(f.text("A1"), f.text("A2"), f.text("B2"));
    await promptAndSettle(s.nova, "first");
    await promptAndSettle(s.nova, "second");
    const points = await s.nova.request({ type: "get_branch_messages" });
    expect(points.data.messages.map((m: any) => m.text)).toEqual(["first", "second"]);
    const second = points.data.messages[1].entryId;
    const branched = await s.nova.request({ type: "branch", entryId: second });
    expect(branched.data).toEqual({ text: "second", cancelled: false });
    expect((await s.nova.request({ type: "get_messages" })).data.messages.map((m: any) => m.content?.[0]?.text ?? m.content)).toEqual(["first", "A1"]);
    await promptAndSettle(s.nova, "other second");
    const messages = (await s.nova.request({ type: "get_messages" })).data.messages;
    expect(messages.map((m: any) => (typeof m.content === "string" ? m.content : m.content[0].text))).toEqual(["first", "A1", "other second", "B2"]);
    const text = readFileSync(sessionFiles(dir)[0]!, "utf8");
    expect(text).toContain('"A2"');
    expect(text).toContain('"B2"');
    const fork = await s.nova.request({ type: "fork", entryId: "does-not-exist" });
    expect(fork.success).toBe(false);
    expect(fork.error).toContain("does-not-exist");
  });
});

describe("clone", () => {
  test("copies the current branch, compaction included, into a new file that continues from it", async () => {
    const dir = tempDir("nova-sessions-");
    const s = await setup({ args: ["--session-dir", dir], extra: { compaction: { enabled: true, reserveTokens: 200, keepRecentTokens: 30 } } });
    const usage = { input: 300, output: 100 };
    s.server.enqueue(f.text("A".repeat(400), { usage }), f.text("B".repeat(400), { usage }), f.text("SUMMARY"), f.text("C"));
    await promptAndSettle(s.nova, "one");
    await promptAndSettle(s.nova, "two");
    await s.nova.request({ type: "compact" });
    await s.nova.request({ type: "set_session_name", name: "original" });
    const before = (await s.nova.request({ type: "get_messages" })).data.messages;
    const original = (await s.nova.request({ type: "get_state" })).data;
    expect((await s.nova.request({ type: "clone" })).data).toEqual({ cancelled: false });
    const copy = (await s.nova.request({ type: "get_state" })).data;
    expect(copy.sessionId).not.toBe(original.sessionId);
    expect(copy.sessionName).toBe("original");
    expect((await s.nova.request({ type: "get_messages" })).data.messages).toEqual(before);
    await promptAndSettle(s.nova, "three");
    expect(readFileSync(original.sessionFile, "utf8")).not.toContain('"three"');
    const reader = await setup({ args: ["--no-session"] });
    await reader.nova.request({ type: "switch_session", sessionPath: copy.sessionFile });
    const reloaded = (await reader.nova.request({ type: "get_messages" })).data.messages;
    expect(reloaded[0]).toMatchObject({ role: "compactionSummary", summary: "SUMMARY" });
    expect(reloaded.length).toBe(before.length + 2);
  });
});

describe("stats and export", () => {
  test("get_session_stats counts messages, tool calls and tokens", async () => {
    const s = await setup();
    writeFileSync(join(s.cwd, "x.txt"), "x");
    s.server.enqueue(f.toolCalls([{ id: "c1", name: "read", args: { path: "x.txt" } }], { usage: { input: 100, output: 20 } }), f.text("ok", { usage: { input: 130, output: 5 } }));
    await promptAndSettle(s.nova, "go");
    const stats = (await s.nova.request({ type: "get_session_stats" })).data;
    expect(stats).toMatchObject({ userMessages: 1, assistantMessages: 2, toolCalls: 1, toolResults: 1, totalMessages: 4 });
    expect(stats.tokens).toMatchObject({ input: 230, output: 25 });
    const usage = (await s.nova.request({ type: "get_state" })).data.contextUsage;
    expect(usage.contextWindow).toBe(100000);
    expect(usage.tokens).toBeGreaterThanOrEqual(135);
  });

  test("export_html writes one self-contained page: messages, tool calls and images, without the API key", async () => {
    const s = await setup();
    writeFileSync(join(s.cwd, "x.txt"), "file body");
    s.server.enqueue(f.toolCalls([{ id: "c1", name: "read", args: { path: "x.txt" } }]), f.text("The file has a body."));
    await promptAndSettle(s.nova, "read x.txt please", { images: [{ type: "image", data: PNG, mimeType: "image/png" }] });
    const out = join(s.cwd, "out", "session.html");
    const r = await s.nova.request({ type: "export_html", outputPath: out });
    expect(r).toMatchObject({ success: true, data: { path: out } });
    const html = readFileSync(out, "utf8");
    // parse it: the text a reader sees, the images it shows, and every reference to something outside the file
    let text = "";
    const images: string[] = [];
    const external: string[] = [];
    await new HTMLRewriter()
      .on("*", {
        text(chunk) {
          text += chunk.text;
        },
        element(el) {
          for (const attr of ["src", "href"]) {
            const value = el.getAttribute(attr);
            if (value && !value.startsWith("data:") && !value.startsWith("#")) external.push(value);
          }
          if (el.tagName === "img") images.push(el.getAttribute("src") ?? "");
        },
      })
      .transform(new Response(html))
      .text();
    expect(text).toContain("read x.txt please");
    expect(text).toContain("The file has a body.");
    expect(text).toContain("file body");
    expect(text).toContain("read");
    expect(images).toContain(`data:image/png;base64,${PNG}`);
    expect(external).toEqual([]);
    expect(html).not.toContain("sk-test-secret-key-123456");
    expect(html).not.toContain("<script");
  });
});

describe("compaction", () => {
  const small = { compaction: { enabled: true, reserveTokens: 200, keepRecentTokens: 30 } };
  const smallScenario = () => setup({ extra: small });

  test("manual compact summarises the older part and keeps recent turns verbatim", async () => {
    const s = await smallScenario();
    const usage = { input: 300, output: 100 };
    s.server.enqueue(f.text("A".repeat(400), { usage }), f.text("B".repeat(400), { usage }), f.text("SUMMARY OF EARLIER WORK"));
    await promptAndSettle(s.nova, "first question");
    await promptAndSettle(s.nova, "second question");
    const from = s.nova.frames.length;
    const r = await s.nova.request({ type: "compact", customInstructions: "focus on questions" });
    expect(r.success).toBe(true);
    expect(r.data.summary).toBe("SUMMARY OF EARLIER WORK");
    expect(r.data.tokensBefore).toBeGreaterThan(r.data.tokensAfter);
    const end = s.nova.frames.slice(from).find((fr) => fr.type === "compaction_end")!;
    expect(end).toMatchObject({ reason: "manual", aborted: false });
    expect(end.before).toBeGreaterThan(end.after);
    const summaryRequest = JSON.stringify(s.server.requests[2]!.body);
    expect(summaryRequest).toContain("first question");
    expect(summaryRequest).toContain("focus on questions");
    const messages = (await s.nova.request({ type: "get_messages" })).data.messages;
    expect(messages[0]).toMatchObject({ role: "compactionSummary", summary: "SUMMARY OF EARLIER WORK" });
    expect(messages.at(-1).content[0].text).toBe("B".repeat(400));
  });

  test("automatic compaction at the threshold, before the next request", async () => {
    const s = await setup({ extra: small });
    await s.nova.request({ type: "set_model", provider: "test", modelId: "m2" });
    // m2 has a 50 000 token window; the first answer reports 49 900 tokens of usage
    s.server.enqueue(f.text("H".repeat(400), { usage: { input: 49800, output: 100 } }), f.text("SUMMARY"), f.text("after compaction"));
    await promptAndSettle(s.nova, "first");
    const frames = await promptAndSettle(s.nova, "second");
    const kinds = frames.filter((fr) => /compaction/.test(fr.type)).map((fr) => fr.type);
    // Pi 0.73's auto_compaction_* around Pi 1.6's compaction_start/end
    expect(kinds).toEqual(["auto_compaction_start", "compaction_start", "compaction_end", "auto_compaction_end"]);
    expect(frames.find((fr) => fr.type === "auto_compaction_start")!.reason).toBe("threshold");
    expect(frames.find((fr) => fr.type === "compaction_start")!.reason).toBe("threshold");
    const end = frames.find((fr) => fr.type === "compaction_end")!;
    expect(end).toMatchObject({ reason: "threshold", aborted: false, willRetry: false, result: { summary: "SUMMARY", tokensBefore: end.before, estimatedTokensAfter: end.after } });
    expect(end.result.firstKeptEntryId).toBeString();
    expect(frames.find((fr) => fr.type === "agent_end")!.messages.at(-1).content[0].text).toBe("after compaction");
    expect(JSON.stringify(s.server.requests[2]!.body)).toContain("SUMMARY");
  });

  test("a context-overflow error compacts and retries the turn once", async () => {
    const s = await smallScenario();
    s.server.enqueue(
      f.text("C".repeat(400)),
      fixtures.httpError(400, { error: { message: "This model's maximum context length is 8192 tokens", code: "context_length_exceeded" } }),
      f.text("OVERFLOW SUMMARY"),
      f.text("answered after compaction"),
    );
    await promptAndSettle(s.nova, "first");
    const frames = await promptAndSettle(s.nova, "second");
    expect(frames.find((fr) => fr.type === "auto_compaction_start")!.reason).toBe("overflow");
    expect(frames.find((fr) => fr.type === "auto_compaction_end")!).toMatchObject({ aborted: false, willRetry: true });
    expect(frames.find((fr) => fr.type === "agent_end")!.messages.at(-1).content[0].text).toBe("answered after compaction");
  });

  test("tool call and result pairs are never split by the cut", async () => {
    const s = await smallScenario();
    writeFileSync(join(s.cwd, "t.txt"), "T".repeat(300));
    s.server.enqueue(f.text("D".repeat(300)), f.toolCalls([{ id: "r1", name: "read", args: { path: "t.txt" } }]), f.text("E".repeat(10)), f.text("PAIR SUMMARY"));
    await promptAndSettle(s.nova, "first");
    await promptAndSettle(s.nova, "read t.txt");
    await s.nova.request({ type: "compact" });
    const messages = (await s.nova.request({ type: "get_messages" })).data.messages;
    expect(messages[0].role).toBe("compactionSummary");
    expect(messages[1].role).not.toBe("toolResult");
    const calls = messages.filter((m: any) => m.role === "assistant").flatMap((m: any) => m.content.filter((c: any) => c.type === "toolCall").map((c: any) => c.id));
    const results = messages.filter((m: any) => m.role === "toolResult").map((m: any) => m.toolCallId);
    expect(results).toEqual(calls);
  });

  test("abort during compaction leaves the session as it was", async () => {
    const s = await smallScenario();
    s.server.enqueue(f.text("F".repeat(400)), f.text("G".repeat(400)), cutAfter(f.text("Xyzzy summary"), "Xyzz", "stall"));
    await promptAndSettle(s.nova, "first");
    await promptAndSettle(s.nova, "second");
    const before = (await s.nova.request({ type: "get_messages" })).data.messages;
    const compacting = s.nova.request({ type: "compact" });
    await s.server.waitForRequests(3);
    expect((await s.nova.request({ type: "get_state" })).data.isCompacting).toBe(true);
    await s.nova.request({ type: "abort" });
    const r = await compacting;
    expect(r).toMatchObject({ success: false, error: "Compaction aborted" });
    expect((await s.nova.request({ type: "get_messages" })).data.messages).toEqual(before);
    expect((await s.nova.request({ type: "get_state" })).data.isCompacting).toBe(false);
  });
});
