/** The checkpoint store's parts: the object store, the scan, the diff, retention. */
import { describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, utimesSync, writeFileSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { unifiedDiff } from "../../src/checkpoints/diff.ts";
import { Checkpoints, readRecords, type CheckpointRecord } from "../../src/checkpoints/index.ts";
import { ObjectStore } from "../../src/checkpoints/objects.ts";
import { pruneCheckpoints } from "../../src/checkpoints/prune.ts";
import { scanTree } from "../../src/checkpoints/scan.ts";
import { tempDir } from "../support/nova.ts";

const settings = { enabled: true, maxFileBytes: 1 << 20, maxFiles: 1000, maxAgeDays: 14, maxBytes: 1 << 30 };

describe("ObjectStore", () => {
  test("stores each content once under its SHA-256, compressed, and gives it back", () => {
    const store = new ObjectStore(tempDir("nova-cp-objects-"));
    const bytes = new TextEncoder().encode("hello ".repeat(1000));
    const hash = store.put(bytes);
    expect(hash).toBe(new Bun.CryptoHasher("sha256").update(bytes).digest("hex"));
    expect(store.put(bytes)).toBe(hash);
    expect(readFileSync(store.path(hash)).length).toBeLessThan(bytes.length / 10);
    expect(store.get(hash)).toEqual(bytes);
  });
});

describe("scanTree", () => {
  test("honours .gitignore and .ignore, skips .git and node_modules, sees folders and links", () => {
    const root = tempDir("nova-cp-scan-");
    writeFileSync(join(root, ".gitignore"), "*.log\n");
    mkdirSync(join(root, "sub"));
    writeFileSync(join(root, "sub", ".ignore"), "secret.txt\n");
    writeFileSync(join(root, "sub", "secret.txt"), "x");
    writeFileSync(join(root, "sub", "kept.txt"), "x");
    writeFileSync(join(root, "app.log"), "x");
    mkdirSync(join(root, ".git"));
    writeFileSync(join(root, ".git", "index"), "x");
    mkdirSync(join(root, "node_modules"));
    writeFileSync(join(root, "node_modules", "m.js"), "x");
    Bun.spawnSync(["ln", "-s", "sub", join(root, "link")]);
    const scan = scanTree(root);
    expect([...scan.keys()].sort()).toEqual([".gitignore", "link", "sub", "sub/.ignore", "sub/kept.txt"]);
    expect(scan.get("link")!.kind).toBe("link");
    expect(scan.get("sub")!.kind).toBe("dir");
  });
});

describe("unifiedDiff", () => {
  test("matches the hunks GNU diff -u writes", () => {
    const a = "a\nb\nc\nd\ne\nf\ng\nh\ni\nj\n";
    const b = "a\nB\nc\nd\ne\nf\ng\nh\ni\nJ\nk\n";
    const dir = tempDir("nova-cp-diff-");
    writeFileSync(join(dir, "a"), a);
    writeFileSync(join(dir, "b"), b);
    const gnu = Bun.spawnSync(["diff", "-u", join(dir, "a"), join(dir, "b")])
      .stdout.toString()
      .split("\n")
      .slice(2)
      .join("\n");
    expect(unifiedDiff("x", a, b)).toBe(`--- a/x\n+++ b/x\n${gnu}`);
    expect(unifiedDiff("x", a, a)).toBe("");
  });
});

describe("pruneCheckpoints", () => {
  test("drops checkpoints older than maxAgeDays and the oldest beyond maxBytes, then the objects no one names", async () => {
    const home = tempDir("nova-cp-prune-");
    const cwd = tempDir("nova-cp-prune-cwd-");
    const entries = new Map<string, number>();
    const cp = new Checkpoints({ cwd, novaHome: home, settings, sessionId: () => "s1", entryTime: (id) => entries.get(id) });
    const record = async (id: string, content: string) => {
      entries.set(id, Date.now());
      await cp.beginBatch();
      writeFileSync(join(cwd, `${id}.txt`), content);
      return (await cp.endBatch({ entryId: id, turnIndex: 0 }))!;
    };
    await record("old", "x".repeat(5000));
    await record("mid", "y".repeat(5000));
    await record("new", "z".repeat(5000));
    const log = join(cp.dir, "checkpoints.jsonl");
    // age the first record by 20 days, and every object by two hours (past the grace for fresh objects)
    const lines = readFileSync(log, "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as CheckpointRecord);
    lines[0]!.timestamp -= 20 * 24 * 3600 * 1000;
    writeFileSync(log, lines.map((l) => `${JSON.stringify(l)}\n`).join(""));
    const objects = new ObjectStore(join(cp.dir, "objects"));
    const hashOf = (r: CheckpointRecord) => (Object.values(r.states)[0]![1] as { hash: string }).hash;
    const past = (Date.now() - 2 * 3600 * 1000) / 1000;
    for (const r of lines) utimesSync(objects.path(hashOf(r)), past, past);

    const size = (r: CheckpointRecord) => readFileSync(objects.path(hashOf(r))).length;
    const result = await pruneCheckpoints(home, { maxAgeDays: 14, maxBytes: size(lines[2]!) + 1 });
    expect(result.dropped).toBe(2);
    expect(readRecords(log).map((r) => r.entryId)).toEqual(["new"]);
    expect(existsSync(objects.path(hashOf(lines[0]!)))).toBe(false);
    expect(existsSync(objects.path(hashOf(lines[1]!)))).toBe(false);
    expect(existsSync(objects.path(hashOf(lines[2]!)))).toBe(true);
  });
});
