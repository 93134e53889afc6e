import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { findSessionById, listSessions, sessionDirFor } from "../../src/session/paths.ts";
import { SessionStore } from "../../src/session/store.ts";
import { assistant, user } from "./fixtures.ts";

let home: string;
beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), "nova-paths-"));
});
afterEach(() => {
  rmSync(home, { recursive: true, force: true });
});

describe("sessionDirFor", () => {
  test("slugs the cwd like Pi, keeping only safe characters", () => {
    expect(sessionDirFor("/h", "/home/me/app")).toBe("/h/sessions/--home-me-app--");
    expect(sessionDirFor("/h", "C:\\work\\x y")).toBe("/h/sessions/--C--work-x_y--");
    expect(sessionDirFor("/h", "/a/$(rm -rf)/..")).toBe("/h/sessions/--a-__rm_-rf_-..--");
  });
});

describe("listSessions", () => {
  test("lists sessions newest first with counts, names and the first user message", async () => {
    const dir = sessionDirFor(home, "/work/app");
    const older = SessionStore.create(dir, { cwd: "/work/app" });
    older.append({ type: "message", message: user("fix the bug") });
    older.append({ type: "message", message: assistant([{ type: "text", text: "done" }]) });
    older.append({ type: "session_info", name: "bugfix" });
    older.close();
    const newer = SessionStore.create(dir, { cwd: "/work/app" });
    newer.append({ type: "model_change", provider: "p", modelId: "m" });
    newer.append({ type: "message", message: { role: "user", content: [{ type: "text", text: "add tests" }], timestamp: 1 } });
    newer.close();
    writeFileSync(join(dir, "junk.jsonl"), "not a session\n");
    writeFileSync(join(dir, "notes.txt"), "ignored");
    utimesSync(older.path as string, new Date("2026-01-01"), new Date("2026-01-01"));
    utimesSync(newer.path as string, new Date("2026-01-02"), new Date("2026-01-02"));

    const listed = await listSessions(dir);
    expect(listed).toEqual([
      {
        id: newer.sessionId,
        path: newer.path as string,
        cwd: "/work/app",
        created: new Date(newer.header.timestamp),
        modified: new Date("2026-01-02"),
        messageCount: 1,
        firstMessage: "add tests",
      },
      {
        id: older.sessionId,
        path: older.path as string,
        cwd: "/work/app",
        created: new Date(older.header.timestamp),
        modified: new Date("2026-01-01"),
        name: "bugfix",
        messageCount: 2,
        firstMessage: "fix the bug",
      },
    ]);
  });

  test("a missing folder lists nothing", async () => {
    expect(await listSessions(join(home, "nope"))).toEqual([]);
  });
});

describe("findSessionById", () => {
  test("finds a session in any cwd folder by the id in its file name", async () => {
    const a = SessionStore.create(sessionDirFor(home, "/a"), { cwd: "/a" });
    const b = SessionStore.create(sessionDirFor(home, "/b"), { cwd: "/b" });
    a.close();
    b.close();
    const root = join(home, "sessions");
    expect(await findSessionById(root, b.sessionId)).toBe(b.path as string);
    expect(await findSessionById(root, a.sessionId)).toBe(a.path as string);
    expect(await findSessionById(root, "00000000-0000-0000-0000-000000000000")).toBeUndefined();
    expect(await findSessionById(join(home, "missing"), a.sessionId)).toBeUndefined();
  });
});
