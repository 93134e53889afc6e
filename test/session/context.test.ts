import { describe, expect, test } from "bun:test";
import { SessionStore } from "../../src/session/store.ts";
import { assistant, user } from "./fixtures.ts";

function textsOf(store: SessionStore): string[] {
  return store.buildContext().messages.map((message) => {
    switch (message.role) {
      case "user":
        return `user:${message.content as string}`;
      case "compactionSummary":
        return `summary:${message.summary}:${message.tokensBefore}`;
      case "branchSummary":
        return `branch:${message.summary}:${message.fromId}`;
      default:
        return message.role;
    }
  });
}

describe("buildContext", () => {
  test("a compaction starts the context with its summary, then the kept and later entries", () => {
    const store = SessionStore.inMemory({ cwd: "/w" });
    store.append({ type: "message", message: user("one") });
    store.append({ type: "message", message: user("two") });
    const kept = store.append({ type: "message", message: user("three") });
    store.append({ type: "message", message: user("four") });
    const compaction = store.append({
      type: "compaction",
      summary: "talked about one and two",
      firstKeptEntryId: kept.id,
      tokensBefore: 1234,
      timestamp: "2026-02-03T04:05:06.000Z",
    });
    store.append({ type: "message", message: user("five") });

    expect(textsOf(store)).toEqual(["summary:talked about one and two:1234", "user:three", "user:four", "user:five"]);
    expect(store.buildContext().messages[0]).toEqual({
      role: "compactionSummary",
      summary: "talked about one and two",
      tokensBefore: 1234,
      timestamp: Date.parse(compaction.timestamp),
    });
  });

  test("only the newest compaction on the path counts", () => {
    const store = SessionStore.inMemory({ cwd: "/w" });
    const a = store.append({ type: "message", message: user("a") });
    store.append({ type: "compaction", summary: "old", firstKeptEntryId: a.id, tokensBefore: 10 });
    const b = store.append({ type: "message", message: user("b") });
    store.append({ type: "compaction", summary: "new", firstKeptEntryId: b.id, tokensBefore: 20 });
    expect(textsOf(store)).toEqual(["summary:new:20", "user:b"]);
  });

  test("a branch summary becomes a branchSummary message", () => {
    const store = SessionStore.inMemory({ cwd: "/w" });
    const root = store.append({ type: "message", message: user("root") });
    const abandoned = store.append({ type: "message", message: user("abandoned") });
    store.branch(root.id);
    store.append({ type: "branch_summary", fromId: abandoned.id, summary: "tried X" });
    expect(textsOf(store)).toEqual(["user:root", `branch:tried X:${abandoned.id}`]);
  });

  test("the last model, thinking level and name on the path win; other branches do not count", () => {
    const store = SessionStore.inMemory({ cwd: "/w" });
    store.append({ type: "model_change", provider: "p1", modelId: "m1" });
    const fork = store.append({ type: "thinking_level_change", thinkingLevel: "low" });
    store.append({ type: "model_change", provider: "p2", modelId: "m2" });
    store.append({ type: "thinking_level_change", thinkingLevel: "high" });
    store.append({ type: "session_info", name: "first" });
    expect(store.buildContext()).toEqual({
      messages: [],
      model: { provider: "p2", modelId: "m2" },
      thinkingLevel: "high",
      name: "first",
    });

    store.branch(fork.id);
    expect(store.buildContext()).toEqual({ messages: [], model: { provider: "p1", modelId: "m1" }, thinkingLevel: "low" });
    store.append({ type: "message", message: assistant([{ type: "text", text: "hi" }], { provider: "p3", model: "m3" }) });
    expect(store.buildContext().model).toEqual({ provider: "p3", modelId: "m3" });
  });
});
