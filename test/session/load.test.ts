import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseSessionText } from "../../src/session/load.ts";
import { SessionStore } from "../../src/session/store.ts";
import { assistant, user } from "./fixtures.ts";

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "nova-load-"));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

const HEADER = '{"type":"session","version":1,"id":"s1","timestamp":"2026-01-01T00:00:00.000Z","cwd":"/w"}';

function entryLine(id: string, parentId: string | null): string {
  return JSON.stringify({ type: "message", id, parentId, timestamp: "2026-01-01T00:00:00.000Z", message: user(id) });
}

describe("parseSessionText", () => {
  test("skips an unparseable middle line with a warning naming its line number", () => {
    const text = [HEADER, entryLine("a", null), "{not json", entryLine("b", "a"), ""].join("\n");
    const result = parseSessionText(text, "s.jsonl");
    if (!result.ok) throw new Error(result.error);
    expect(result.session.entries.map((entry) => entry.id)).toEqual(["a", "b"]);
    expect(result.session.warnings).toEqual(["s.jsonl: line 3 is not valid JSON; skipped"]);
  });

  test("attaches an entry with an unknown parent to the previous entry", () => {
    const text = [HEADER, entryLine("a", null), entryLine("b", "gone"), ""].join("\n");
    const result = parseSessionText(text, "s.jsonl");
    if (!result.ok) throw new Error(result.error);
    expect(result.session.entries[1]!.parentId).toBe("a");
    expect(result.session.warnings).toHaveLength(1);
    expect(result.session.warnings[0]).toContain('parent "gone" of entry "b" is not in the file');
  });

  test("skips entries missing the fields the store relies on, and duplicate ids", () => {
    const text = [
      HEADER,
      entryLine("a", null),
      '{"type":"message","id":"x","parentId":"a","message":"hi"}',
      '{"type":"compaction","id":"y","parentId":"a"}',
      entryLine("a", null),
      '{"type":"custom","id":"c","parentId":"a"}',
      "",
    ].join("\n");
    const result = parseSessionText(text, "s.jsonl");
    if (!result.ok) throw new Error(result.error);
    expect(result.session.entries.map((entry) => entry.id)).toEqual(["a", "c"]);
    expect(result.session.warnings.map((warning) => warning.match(/line (\d+)/)?.[1])).toEqual(["3", "4", "5"]);
  });

  test("reports a missing header as an error value", () => {
    expect(parseSessionText("", "s.jsonl")).toEqual({
      ok: false,
      error: "s.jsonl: line 1 is not a session header (expected a JSON object)",
    });
    const result = parseSessionText('{"type":"message"}\n', "s.jsonl");
    expect(result.ok).toBe(false);
  });
});

describe("a session file cut at every byte of its last entry", () => {
  test("loads every earlier entry, warns only on a torn line, and accepts appends", async () => {
    const store = SessionStore.create(dir, { cwd: "/w" });
    store.append({ type: "message", message: user("first") });
    store.append({ type: "model_change", provider: "anthropic", modelId: "m" });
    // Multi-byte characters so some cuts split a UTF-8 sequence.
    store.append({ type: "message", message: assistant([{ type: "text", text: "naïve café ✓ 🎉 done" }]) });
    store.close();
    const path = store.path as string;
    const full = readFileSync(path);
    const lastLineStart = full.lastIndexOf(0x0a, full.length - 2) + 1;
    const earlier = store.entries.slice(0, -1);
    const last = store.entries.at(-1);

    for (let cut = lastLineStart; cut <= full.length; cut++) {
      writeFileSync(path, full.subarray(0, cut));
      const { store: loaded, warnings } = await SessionStore.open(path);
      // The JSON is whole once everything but the LF is there.
      const complete = cut >= full.length - 1;
      const torn = cut > lastLineStart && !complete;
      expect(loaded.entries).toEqual(complete ? store.entries : earlier);
      expect(warnings).toHaveLength(torn ? 1 : 0);
      if (torn) expect(warnings[0]).toContain(`line 4 is incomplete`);

      const added = loaded.append({ type: "session_info", name: `cut ${cut}` });
      loaded.close();
      expect(added.parentId).toBe(complete ? (last?.id as string) : (earlier.at(-1)?.id as string));
      const { store: again, warnings: againWarnings } = await SessionStore.open(path);
      expect(againWarnings).toEqual(torn ? [`${path}: line 4 is not valid JSON; skipped`] : []);
      expect(again.entries.at(-1)).toEqual(added);
      expect(again.name).toBe(`cut ${cut}`);
      expect(readFileSync(path, "utf8").endsWith(`${JSON.stringify(added)}\n`)).toBe(true);
    }
  });
});
