/**
 * Checkpoints through the real process (docs/checkpoints.md): what write,
 * edit and bash change in the cwd is recorded after each tool batch, and
 * revert (or branch with restoreFiles) puts it back exactly: contents, modes,
 * deletions, symlinks and folders.
 */
import { expect, test } from "bun:test";
import { chmodSync, existsSync, lstatSync, mkdirSync, readFileSync, readdirSync, readlinkSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fixtures } from "../support/fixtures/index.ts";
import { startNova, type Frame } from "../support/nova.ts";
import { promptAndSettle, scenarios, testConfig, type Scenario } from "../support/scenario.ts";
import { startProviderServer } from "../support/provider-server.ts";

const f = fixtures.openaiChat;
const open = scenarios();

/** Every file, link and folder under `root` (but .git) with what it holds. */
function manifest(root: string, skip = new Set([".git"])): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (dir: string, rel: string) => {
    for (const name of readdirSync(dir).sort()) {
      if (skip.has(name)) continue;
      const abs = join(dir, name);
      const path = rel ? `${rel}/${name}` : name;
      const s = lstatSync(abs);
      if (s.isSymbolicLink()) out[path] = `link → ${readlinkSync(abs)}`;
      else if (s.isDirectory()) {
        out[path] = "dir";
        walk(abs, path);
      } else out[path] = `${(s.mode & 0o777).toString(8)} ${readFileSync(abs).toString("base64")}`;
    }
  };
  walk(root, "");
  return out;
}

function seed(cwd: string): void {
  writeFileSync(join(cwd, "a.txt"), "one\ntwo\nthree\n");
  writeFileSync(join(cwd, "b.txt"), "bee\n");
  writeFileSync(join(cwd, "c.txt"), "sea\n");
  writeFileSync(join(cwd, "d.txt"), "dee\n");
  writeFileSync(join(cwd, "script.sh"), "echo hi\n");
  chmodSync(join(cwd, "script.sh"), 0o644);
  symlinkSync("a.txt", join(cwd, "old-link"));
  mkdirSync(join(cwd, "keep"));
  writeFileSync(join(cwd, "keep", "k.txt"), "kept\n");
}

const BASH = [
  "sed -i s/bee/BEE/ b.txt",
  "rm c.txt",
  "mv d.txt e.txt",
  "mkdir -p deep/er/dir",
  "chmod +x script.sh",
  "printf '\\000\\001\\002binary' > bin.dat",
  "ln -s b.txt new-link",
  "ln -sfn b.txt old-link",
].join(" && ");

/** One assistant message with write, edit and bash calls; resolves with the frames and the checkpoint_created frame. */
async function changeEverything(s: Scenario) {
  s.server.enqueue(
    f.toolCalls([
      { id: "w1", name: "write", args: { path: "new.txt", content: "brand new\n" } },
      { id: "e1", name: "edit", args: { path: "a.txt", edits: [{ oldText: "two", newText: "TWO" }] } },
      { id: "b1", name: "bash", args: { command: BASH } },
    ]),
    f.text("done"),
  );
  const frames = await promptAndSettle(s.nova, "change things");
  const created = frames.find((fr) => fr.type === "checkpoint_created");
  return { frames, created };
}

test("write, edit and bash changes are recorded in one checkpoint and revert restores the tree exactly", async () => {
  const s = await open({});
  seed(s.cwd);
  const before = manifest(s.cwd);
  const { frames, created } = await changeEverything(s);
  expect(frames.filter((fr) => fr.type === "tool_execution_end").map((fr) => fr.isError)).toEqual([false, false, false]);
  expect(created).toBeDefined();
  // the checkpoint follows the batch and comes before its turn_end
  const types = frames.map((fr) => fr.type);
  expect(types.indexOf("checkpoint_created")).toBeGreaterThan(types.lastIndexOf("tool_execution_end"));
  expect(types.indexOf("checkpoint_created")).toBeLessThan(types.indexOf("turn_end"));
  expect(created!.files).toEqual([
    { path: "a.txt", change: "modified" },
    { path: "b.txt", change: "modified" },
    { path: "bin.dat", change: "added" },
    { path: "c.txt", change: "deleted" },
    { path: "e.txt", change: "renamed", from: "d.txt" },
    { path: "new-link", change: "added" },
    { path: "new.txt", change: "added" },
    { path: "old-link", change: "modified" },
    { path: "script.sh", change: "modified" },
  ]);

  const list = (await s.nova.request({ type: "get_checkpoints" })).data.checkpoints;
  expect(list).toHaveLength(1);
  expect(list[0]).toMatchObject({ entryId: created!.entryId, files: created!.files });
  expect(typeof list[0].timestamp).toBe("number");

  const changes = (await s.nova.request({ type: "get_turn_changes", entryId: created!.entryId })).data;
  expect(changes.files).toEqual(created!.files);
  expect(changes.diff).toContain("--- a/a.txt\n+++ b/a.txt\n@@ -1,3 +1,3 @@\n one\n-two\n+TWO\n three\n");
  expect(changes.diff).toContain("--- /dev/null\n+++ b/new.txt\n@@ -0,0 +1,1 @@\n+brand new\n");
  expect(changes.diff).toContain("--- a/c.txt\n+++ /dev/null\n");
  expect(changes.diff).toContain("Binary files /dev/null and b/bin.dat differ");
  expect(changes.diff).toContain("old mode 644\nnew mode 755");

  const reverted = (await s.nova.request({ type: "revert", entryId: created!.entryId })).data;
  expect(reverted.conflicts).toEqual([]);
  expect(reverted.skipped).toEqual([]);
  expect([...reverted.restored].sort()).toEqual(["a.txt", "b.txt", "bin.dat", "c.txt", "d.txt", "e.txt", "new-link", "new.txt", "old-link", "script.sh"]);
  expect(manifest(s.cwd)).toEqual(before);
  expect(existsSync(join(s.cwd, "deep"))).toBe(false);
});

test("a file the user changed after the checkpoint is a conflict, left alone unless force", async () => {
  const s = await open({});
  seed(s.cwd);
  const { created } = await changeEverything(s);
  writeFileSync(join(s.cwd, "a.txt"), "the user's own edit\n");
  const first = (await s.nova.request({ type: "revert", entryId: created!.entryId })).data;
  expect(first.conflicts).toEqual([{ path: "a.txt", reason: expect.stringContaining("changed after the checkpoint") }]);
  expect(first.restored).not.toContain("a.txt");
  expect(readFileSync(join(s.cwd, "a.txt"), "utf8")).toBe("the user's own edit\n");
  expect(readFileSync(join(s.cwd, "b.txt"), "utf8")).toBe("bee\n");
  const forced = (await s.nova.request({ type: "revert", entryId: created!.entryId, force: true })).data;
  expect(forced.restored).toEqual(["a.txt"]);
  expect(readFileSync(join(s.cwd, "a.txt"), "utf8")).toBe("one\ntwo\nthree\n");
});

test("dryRun changes nothing and reports the same lists; paths limits what is restored", async () => {
  const s = await open({});
  seed(s.cwd);
  const { created } = await changeEverything(s);
  const changed = manifest(s.cwd);
  const dry = (await s.nova.request({ type: "revert", entryId: created!.entryId, dryRun: true })).data;
  expect(manifest(s.cwd)).toEqual(changed);
  const some = (await s.nova.request({ type: "revert", entryId: created!.entryId, paths: ["b.txt", "new.txt"] })).data;
  expect(some.restored.sort()).toEqual(["b.txt", "new.txt"]);
  expect(readFileSync(join(s.cwd, "b.txt"), "utf8")).toBe("bee\n");
  expect(existsSync(join(s.cwd, "new.txt"))).toBe(false);
  expect(readFileSync(join(s.cwd, "a.txt"), "utf8")).toBe("one\nTWO\nthree\n");
  const rest = (await s.nova.request({ type: "revert", entryId: created!.entryId })).data;
  expect([...rest.restored, ...some.restored].sort()).toEqual([...dry.restored].sort());
});

test("a batch that changes nothing records nothing; get_state says checkpoints are on", async () => {
  const s = await open({});
  seed(s.cwd);
  s.server.enqueue(f.toolCalls([{ id: "b1", name: "bash", args: { command: "ls && cat a.txt" } }]), f.text("looked"));
  const frames = await promptAndSettle(s.nova, "look");
  expect(frames.some((fr) => fr.type === "checkpoint_created")).toBe(false);
  expect((await s.nova.request({ type: "get_checkpoints" })).data.checkpoints).toEqual([]);
  const state = (await s.nova.request({ type: "get_state" })).data;
  expect(state.checkpoints).toMatchObject({ enabled: true });
  expect(state.checkpoints.store).toContain(join(s.nova.home, "checkpoints"));
});

test("branch with restoreFiles rewinds the files and the conversation together", async () => {
  const s = await open({});
  seed(s.cwd);
  const before = manifest(s.cwd);
  await changeEverything(s);
  s.server.enqueue(f.toolCalls([{ id: "w2", name: "write", args: { path: "second.txt", content: "2\n" } }]), f.text("again"));
  await promptAndSettle(s.nova, "second turn");
  const users = (await s.nova.request({ type: "get_fork_messages" })).data.messages;
  expect(users.map((m: Frame) => m.text)).toEqual(["change things", "second turn"]);
  const branched = await s.nova.request({ type: "branch", entryId: users[0].entryId, restoreFiles: true });
  expect(branched.success).toBe(true);
  expect(branched.data.text).toBe("change things");
  expect(branched.data.files.conflicts).toEqual([]);
  expect(manifest(s.cwd)).toEqual(before);
  expect((await s.nova.request({ type: "get_messages" })).data.messages).toEqual([]);
});

test("files over the size cap and writes outside the cwd are listed as not restorable", async () => {
  const outside = join(s_tmp(), "outside.txt");
  // a write outside the cwd asks in the default mode (docs/permissions.md): bypass lets it run unasked
  const s = await open({ extra: { checkpoints: { maxFileBytes: 1000 }, permissions: { mode: "bypass" } } });
  s.server.enqueue(
    f.toolCalls([
      { id: "b1", name: "bash", args: { command: "head -c 5000 /dev/zero > big.bin && echo small > small.txt" } },
      { id: "w1", name: "write", args: { path: outside, content: "out\n" } },
    ]),
    f.text("done"),
  );
  const frames = await promptAndSettle(s.nova, "make files");
  const created = frames.find((fr) => fr.type === "checkpoint_created")!;
  const [checkpoint] = (await s.nova.request({ type: "get_checkpoints" })).data.checkpoints;
  expect(checkpoint.notRestorable).toEqual([
    { path: outside, reason: "outside the cwd; not recorded" },
    { path: "big.bin", reason: "larger than 1000 bytes; not copied" },
  ]);
  const reverted = (await s.nova.request({ type: "revert", entryId: created.entryId })).data;
  expect(reverted.restored).toEqual(["small.txt"]);
  expect(reverted.skipped.map((x: Frame) => x.path).sort()).toEqual(["big.bin", outside].sort());
  expect(existsSync(join(s.cwd, "small.txt"))).toBe(false);
  expect(existsSync(join(s.cwd, "big.bin"))).toBe(true);
});

function s_tmp(): string {
  const dir = join("/tmp", `nova-cp-outside-${process.pid}-${Math.random().toString(36).slice(2)}`);
  mkdirSync(dir);
  return dir;
}

test("unknown entry ids and a missing entryId are errors naming them", async () => {
  const s = await open({});
  const unknown = await s.nova.request({ type: "revert", entryId: "nope" });
  expect(unknown.success).toBe(false);
  expect(unknown.error).toContain('no entry has id "nope"');
  const changes = await s.nova.request({ type: "get_turn_changes", entryId: "nope" });
  expect(changes.success).toBe(false);
  expect(changes.error).toContain('no checkpoint has entryId "nope"');
  const bad = await s.nova.request({ type: "revert" });
  expect(bad.success).toBe(false);
  expect(bad.error).toContain("entryId");
});

/** Runs git in `cwd` with the user's own settings out of the way. */
function git(cwd: string, ...args: string[]): string {
  const r = Bun.spawnSync(["git", ...args], { cwd, env: { ...process.env, GIT_AUTHOR_NAME: "t", GIT_AUTHOR_EMAIL: "t@t", GIT_COMMITTER_NAME: "t", GIT_COMMITTER_EMAIL: "t@t" } });
  if (r.exitCode !== 0) throw new Error(`git ${args.join(" ")}: ${r.stderr.toString()}`);
  return r.stdout.toString();
}

function gitState(cwd: string): Record<string, string> {
  const read = (p: string) => (existsSync(join(cwd, ".git", p)) ? readFileSync(join(cwd, ".git", p)).toString("base64") : "absent");
  return {
    index: read("index"),
    HEAD: read("HEAD"),
    stash: read("refs/stash"),
    logsStash: read("logs/refs/stash"),
    config: read("config"),
    hooks: readdirSync(join(cwd, ".git", "hooks"))
      .sort()
      .join(","),
    objects: readdirSync(join(cwd, ".git", "objects"))
      .sort()
      .join(","),
  };
}

test("a cwd that is a git repository with staged changes and a stash: the user's .git is byte-identical afterwards", async () => {
  const s = await open({});
  git(s.cwd, "init", "-q");
  seed(s.cwd);
  git(s.cwd, "add", "-A");
  git(s.cwd, "commit", "-qm", "base");
  writeFileSync(join(s.cwd, "a.txt"), "stashed change\n");
  git(s.cwd, "stash", "-q");
  writeFileSync(join(s.cwd, "b.txt"), "staged change\n");
  git(s.cwd, "add", "b.txt");
  const repo = gitState(s.cwd);
  const tree = manifest(s.cwd);
  const { created } = await changeEverything(s);
  expect(created).toBeDefined();
  await s.nova.request({ type: "revert", entryId: created!.entryId });
  expect(manifest(s.cwd)).toEqual(tree);
  expect(gitState(s.cwd)).toEqual(repo);
  expect(git(s.cwd, "status", "--porcelain")).toBe("M  b.txt\n");
});

test("two nova processes in the same cwd keep their own checkpoints and revert only their own", async () => {
  const server = await startProviderServer();
  const first = await open({});
  const cwd = first.cwd;
  seed(cwd);
  const second = await startNova({ args: ["--no-session"], cwd, config: testConfig(server.url), home: first.nova.home });
  try {
    first.server.enqueue(f.toolCalls([{ id: "w1", name: "write", args: { path: "from-first.txt", content: "1\n" } }]), f.text("ok"));
    server.enqueue(f.toolCalls([{ id: "w2", name: "write", args: { path: "from-second.txt", content: "2\n" } }]), f.text("ok"));
    const from = second.frames.length;
    await Promise.all([
      promptAndSettle(first.nova, "first"),
      (async () => {
        await second.request({ type: "prompt", message: "second" });
        await second.waitFor((fr) => fr.type === "agent_settled", from);
      })(),
    ]);
    const mine = (await first.nova.request({ type: "get_checkpoints" })).data.checkpoints;
    const theirs = (await second.request({ type: "get_checkpoints" })).data.checkpoints;
    expect(mine.flatMap((c: Frame) => c.files.map((x: Frame) => x.path))).not.toContain("from-second.txt");
    expect(theirs.flatMap((c: Frame) => c.files.map((x: Frame) => x.path))).toEqual(["from-second.txt"]);
    await second.request({ type: "revert", entryId: theirs[0].entryId });
    expect(existsSync(join(cwd, "from-second.txt"))).toBe(false);
    expect(existsSync(join(cwd, "from-first.txt"))).toBe(true);
  } finally {
    await second.stop();
    await server.close();
  }
});

test("ACP: _nova/checkpoints lists and _nova/revert restores, advertised in agentCapabilities._meta", async () => {
  const { startAcp } = await import("../acp/client.ts");
  const n = await startAcp();
  try {
    const init = await n.initialize();
    expect(init.agentCapabilities?._meta).toMatchObject({ "nova/revert": { version: 1 }, "nova/checkpoints": { version: 1 } });
    const { sessionId } = await n.conn.newSession({ cwd: n.cwd, mcpServers: [] });
    writeFileSync(join(n.cwd, "a.txt"), "before\n");
    n.server.enqueue(f.toolCalls([{ id: "w1", name: "write", args: { path: "a.txt", content: "after\n" } }]), f.text("done"));
    await n.conn.prompt({ sessionId, prompt: [{ type: "text", text: "rewrite" }] });
    expect(readFileSync(join(n.cwd, "a.txt"), "utf8")).toBe("after\n");
    const listed = (await n.conn.extMethod("nova/checkpoints", { sessionId })) as { checkpoints: Frame[] };
    expect(listed.checkpoints).toHaveLength(1);
    expect(listed.checkpoints[0]!.files).toEqual([{ path: "a.txt", change: "modified" }]);
    const dry = (await n.conn.extMethod("nova/revert", { sessionId, entryId: listed.checkpoints[0]!.entryId, dryRun: true })) as Frame;
    expect(dry).toEqual({ restored: ["a.txt"], conflicts: [], skipped: [] });
    expect(readFileSync(join(n.cwd, "a.txt"), "utf8")).toBe("after\n");
    await n.conn.extMethod("nova/revert", { sessionId, entryId: listed.checkpoints[0]!.entryId });
    expect(readFileSync(join(n.cwd, "a.txt"), "utf8")).toBe("before\n");
    const refused = await n.conn.extMethod("nova/revert", { sessionId, entryId: "nope" }).catch((error: Error) => error);
    expect(String(refused)).toContain('Invalid params for _nova/revert: no entry has id "nope"');
  } finally {
    await n.close();
  }
});

test("a batch of write and edit calls only: new folders included, revert restores exactly", async () => {
  const s = await open({});
  seed(s.cwd);
  const before = manifest(s.cwd);
  s.server.enqueue(
    f.toolCalls([
      { id: "w1", name: "write", args: { path: "sub/dir/new.txt", content: "nested\n" } },
      { id: "w2", name: "write", args: { path: "b.txt", content: "rewritten\n" } },
      { id: "e1", name: "edit", args: { path: "a.txt", edits: [{ oldText: "one", newText: "ONE" }] } },
    ]),
    f.text("done"),
  );
  const frames = await promptAndSettle(s.nova, "write some");
  const created = frames.find((fr) => fr.type === "checkpoint_created")!;
  expect(created.files).toEqual([
    { path: "a.txt", change: "modified" },
    { path: "b.txt", change: "modified" },
    { path: "sub/dir/new.txt", change: "added" },
  ]);
  await s.nova.request({ type: "revert", entryId: created.entryId });
  expect(manifest(s.cwd)).toEqual(before);
});
