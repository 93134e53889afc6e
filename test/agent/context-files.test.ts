import { afterEach, beforeEach, expect, test } from "bun:test";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CONTEXT_FILE_MAX_BYTES, loadContextFiles } from "../../src/agent/context-files.ts";

let base: string;
let home: string;
let repo: string;

beforeEach(async () => {
  base = await mkdtemp(join(tmpdir(), "nova-context-"));
  home = join(base, "home");
  repo = join(base, "outer", "repo");
  await mkdir(home, { recursive: true });
  await mkdir(join(repo, ".git"), { recursive: true });
  await mkdir(join(repo, "pkg", "app"), { recursive: true });
});

afterEach(async () => {
  await rm(base, { recursive: true, force: true });
});

test("reads NOVA_HOME first, then the repository root down to the cwd", async () => {
  await writeFile(join(home, "AGENTS.md"), "home rules");
  await writeFile(join(base, "outer", "AGENTS.md"), "outside the repository");
  await writeFile(join(repo, "AGENTS.md"), "root rules");
  await writeFile(join(repo, "pkg", "app", "AGENTS.md"), "app rules");
  const files = await loadContextFiles({ cwd: join(repo, "pkg", "app"), novaHome: home });
  expect(files).toEqual([
    { path: join(home, "AGENTS.md"), content: "home rules" },
    { path: join(repo, "AGENTS.md"), content: "root rules" },
    { path: join(repo, "pkg", "app", "AGENTS.md"), content: "app rules" },
  ]);
});

test("falls back to CLAUDE.md only in folders without AGENTS.md", async () => {
  await writeFile(join(repo, "AGENTS.md"), "root agents");
  await writeFile(join(repo, "CLAUDE.md"), "root claude");
  await writeFile(join(repo, "pkg", "CLAUDE.md"), "pkg claude");
  const files = await loadContextFiles({ cwd: join(repo, "pkg"), novaHome: home });
  expect(files.map((f) => f.content)).toEqual(["root agents", "pkg claude"]);
});

test("outside a repository only the cwd is searched", async () => {
  const plain = join(base, "plain", "dir");
  await mkdir(plain, { recursive: true });
  await writeFile(join(base, "plain", "AGENTS.md"), "parent");
  await writeFile(join(plain, "AGENTS.md"), "here");
  const files = await loadContextFiles({ cwd: plain, novaHome: home });
  expect(files.map((f) => f.content)).toEqual(["here"]);
});

test("a .git file (worktree or submodule) marks the root too", async () => {
  const sub = join(repo, "sub");
  await mkdir(join(sub, "inner"), { recursive: true });
  await writeFile(join(sub, ".git"), "gitdir: ../.git/modules/sub");
  await writeFile(join(repo, "AGENTS.md"), "outer root");
  await writeFile(join(sub, "AGENTS.md"), "submodule root");
  const files = await loadContextFiles({ cwd: join(sub, "inner"), novaHome: home });
  expect(files.map((f) => f.content)).toEqual(["submodule root"]);
});

test("a cwd equal to NOVA_HOME is read once", async () => {
  await writeFile(join(repo, "AGENTS.md"), "root");
  const files = await loadContextFiles({ cwd: repo, novaHome: repo });
  expect(files.map((f) => f.content)).toEqual(["root"]);
});

test("caps large files with a note naming the size", async () => {
  const big = "x".repeat(CONTEXT_FILE_MAX_BYTES + 100);
  await writeFile(join(repo, "AGENTS.md"), big);
  const [file] = await loadContextFiles({ cwd: repo, novaHome: home });
  expect(file!.content.startsWith("x".repeat(CONTEXT_FILE_MAX_BYTES) + "\n")).toBe(true);
  expect(file!.content).toContain(`first ${CONTEXT_FILE_MAX_BYTES} of ${big.length} bytes`);
});

test("skips unreadable files silently", async () => {
  await mkdir(join(repo, "AGENTS.md"));
  await writeFile(join(repo, "pkg", "AGENTS.md"), "pkg");
  const files = await loadContextFiles({ cwd: join(repo, "pkg"), novaHome: join(base, "missing") });
  expect(files.map((f) => f.content)).toEqual(["pkg"]);
});
