import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { SessionStore } from "../../src/session/store.ts";
import { assistant, toolCall, toolResult, user } from "./fixtures.ts";

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "nova-store-"));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

function fileLines(path: string): Record<string, unknown>[] {
  return readFileSync(path, "utf8")
    .split("\n")
    .filter((line) => line !== "")
    .map((line) => JSON.parse(line));
}

function writeConversation(store: SessionStore): void {
  const call = toolCall("call_1", "read", { path: "a.txt" });
  store.append({ type: "model_change", provider: "anthropic", modelId: "claude-test" });
  store.append({ type: "thinking_level_change", thinkingLevel: "high" });
  store.append({ type: "message", message: user("read a.txt") });
  store.append({ type: "message", message: assistant([{ type: "text", text: "Reading." }, call]) });
  store.append({ type: "message", message: toolResult(call, "hello") });
  store.append({ type: "message", message: assistant([{ type: "text", text: "It says hello." }], { provider: "openai", model: "gpt-test" }) });
  store.append({ type: "session_info", name: "greeting" });
}

describe("SessionStore", () => {
  test("create writes a Pi-shaped header and entries chained by parentId", () => {
    const store = SessionStore.create(dir, { cwd: "/work/app", parentSession: "/old.jsonl" });
    writeConversation(store);
    store.close();

    expect(store.path).toBeDefined();
    const path = store.path as string;
    expect(basename(path)).toMatch(new RegExp(`^\\d{4}-\\d\\d-\\d\\dT\\d\\d-\\d\\d-\\d\\d-\\d{3}Z_${store.sessionId}\\.jsonl$`));
    const [header, ...entries] = fileLines(path);
    expect(header).toEqual({
      type: "session",
      version: 3,
      id: store.sessionId,
      timestamp: expect.any(String),
      cwd: "/work/app",
      parentSession: "/old.jsonl",
    });
    expect(entries.map((entry) => entry.type)).toEqual(["model_change", "thinking_level_change", "message", "message", "message", "message", "session_info"]);
    expect(entries[0]!.parentId).toBeNull();
    for (let i = 1; i < entries.length; i++) expect(entries[i]!.parentId).toBe(entries[i - 1]!.id as string);
    expect(new Set(entries.map((entry) => entry.id)).size).toBe(entries.length);
    expect(store.leafId).toBe(entries.at(-1)?.id as string);
  });

  test("reopening gives the same context, name and leaf", async () => {
    const store = SessionStore.create(dir, { cwd: "/work/app" });
    writeConversation(store);
    store.close();

    const { store: reopened, warnings } = await SessionStore.open(store.path as string);
    expect(warnings).toEqual([]);
    expect(reopened.sessionId).toBe(store.sessionId);
    expect(reopened.cwd).toBe("/work/app");
    expect(reopened.name).toBe("greeting");
    expect(reopened.leafId).toBe(store.leafId);
    expect(reopened.entries).toEqual(store.entries);
    const context = reopened.buildContext();
    expect(context).toEqual(store.buildContext());
    expect(context.messages.map((message) => message.role)).toEqual(["user", "assistant", "toolResult", "assistant"]);
    expect(context.model).toEqual({ provider: "openai", modelId: "gpt-test" });
    expect(context.thinkingLevel).toBe("high");
    expect(context.name).toBe("greeting");
  });

  test("an append after reopening continues from the last entry", async () => {
    const store = SessionStore.create(dir, { cwd: "/w" });
    store.append({ type: "message", message: user("one") });
    const last = store.append({ type: "message", message: user("two") });
    store.close();

    const { store: reopened } = await SessionStore.open(store.path as string);
    const next = reopened.append({ type: "message", message: user("three") });
    reopened.close();
    expect(next.parentId).toBe(last.id);
    expect(fileLines(store.path as string)).toHaveLength(4);
  });

  test("branch starts a new branch and keeps the old one in the file", async () => {
    const store = SessionStore.create(dir, { cwd: "/w" });
    const first = store.append({ type: "message", message: user("first") });
    const reply = store.append({ type: "message", message: assistant([{ type: "text", text: "old reply" }]) });
    const oldFollowUp = store.append({ type: "message", message: user("old follow-up") });

    store.branch(first.id);
    expect(store.leafId).toBe(first.id);
    const newReply = store.append({ type: "message", message: assistant([{ type: "text", text: "new reply" }]) });
    store.close();

    expect(newReply.parentId).toBe(first.id);
    expect(store.pathToLeaf().map((entry) => entry.id)).toEqual([first.id, newReply.id]);
    expect(store.getEntry(reply.id)).toEqual(reply);
    expect(store.getEntry(oldFollowUp.id)).toEqual(oldFollowUp);

    const { store: reopened } = await SessionStore.open(store.path as string);
    expect(reopened.entries.map((entry) => entry.id)).toEqual([first.id, reply.id, oldFollowUp.id, newReply.id]);
    expect(reopened.pathToLeaf().map((entry) => entry.id)).toEqual([first.id, newReply.id]);
    expect(reopened.getEntry(oldFollowUp.id)?.parentId).toBe(reply.id);
  });

  test("branch to an unknown id throws and leaves the leaf alone", () => {
    const store = SessionStore.inMemory({ cwd: "/w" });
    const entry = store.append({ type: "message", message: user("hi") });
    expect(() => store.branch("nope")).toThrow(/Unknown entry id "nope"/);
    expect(store.leafId).toBe(entry.id);
  });

  test("the in-memory store has the same API and writes nothing", () => {
    const store = SessionStore.inMemory({ cwd: "/w" });
    writeConversation(store);
    expect(store.path).toBeUndefined();
    expect(store.sessionId).toMatch(/^[0-9a-f-]{36}$/);
    expect(store.entries).toHaveLength(7);
    expect(store.buildContext().messages).toHaveLength(4);
    expect(store.name).toBe("greeting");
  });

  test("open rejects a file without a session header, naming the file", async () => {
    const path = join(dir, "bad.jsonl");
    writeFileSync(path, '{"type":"message","id":"a","parentId":null}\n');
    await expect(SessionStore.open(path)).rejects.toThrow(`${path}: line 1 is not a session header`);
    await expect(SessionStore.open(join(dir, "missing.jsonl"))).rejects.toThrow("Session file not found");
  });
});

describe("SessionStore.appendCopy", () => {
  test("copies a path with new ids and remaps the references between its entries", () => {
    const source = SessionStore.inMemory({ cwd: "/w" });
    const first = source.append({ type: "message", message: user("one") });
    source.append({ type: "message", message: assistant([{ type: "text", text: "A" }]) });
    const kept = source.append({ type: "message", message: user("two") });
    source.append({ type: "compaction", summary: "S", firstKeptEntryId: kept.id, tokensBefore: 10 });
    source.append({ type: "label", targetId: first.id, label: "start" });

    const copy = SessionStore.inMemory({ cwd: "/w" });
    copy.appendCopy(source.pathToLeaf());
    const entries = copy.pathToLeaf();
    expect(entries.map((e) => e.type)).toEqual(["message", "message", "message", "compaction", "label"]);
    const compaction = entries[3] as Extract<(typeof entries)[number], { type: "compaction" }>;
    expect(compaction.firstKeptEntryId).toBe(entries[2]!.id);
    const label = entries[4] as Extract<(typeof entries)[number], { type: "label" }>;
    expect(label.targetId).toBe(entries[0]!.id);
    expect(copy.buildContext()).toEqual(source.buildContext());
  });
});

describe("nova's version-1 files", () => {
  test("still open: the same tree, context and name, and appends continue them unchanged", async () => {
    const path = join(dir, "v1.jsonl");
    const lines = [
      { type: "session", version: 1, id: "old-session", timestamp: "2026-01-01T00:00:00.000Z", cwd: "/work/app" },
      { type: "message", id: "a1", parentId: null, timestamp: "2026-01-01T00:00:01.000Z", message: user("old question") },
      { type: "message", id: "a2", parentId: "a1", timestamp: "2026-01-01T00:00:02.000Z", message: assistant([{ type: "text", text: "old answer" }]) },
      { type: "session_info", id: "a3", parentId: "a2", timestamp: "2026-01-01T00:00:03.000Z", name: "from v1" },
    ];
    const text = lines.map((line) => JSON.stringify(line)).join("\n") + "\n";
    writeFileSync(path, text);
    const { store, warnings } = await SessionStore.open(path);
    expect(warnings).toEqual([]);
    expect(store.header.version).toBe(1);
    expect(store.name).toBe("from v1");
    expect(store.leafId).toBe("a3");
    expect(store.buildContext().messages.map((m) => m.role)).toEqual(["user", "assistant"]);
    store.append({ type: "message", message: user("new question") });
    store.close();
    const after = readFileSync(path, "utf8");
    expect(after.startsWith(text)).toBe(true);
    expect(fileLines(path).at(-1)).toMatchObject({ type: "message", parentId: "a3" });
  });
});
