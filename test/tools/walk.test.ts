import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdir, mkdtemp, rm, symlink } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { walkTree } from "../../src/tools/walk.ts";
import { makeTree } from "./tree.ts";

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "nova-walk-"));
  await makeTree(dir, {
    "repo/.git/HEAD": "",
    "repo/.gitignore": "*.gen\n",
    "repo/pkg/a.gen": "",
    "repo/pkg/a.ts": "",
    "repo/node_modules/x/y.ts": "",
    "plain/.ignore": "skip/\n",
    "plain/skip/z.ts": "",
    "plain/keep/z.ts": "",
  });
});
afterAll(() => rm(dir, { recursive: true, force: true }));

async function collect(root: string, cwd: string): Promise<string[]> {
  const seen: string[] = [];
  await walkTree(root, { cwd }, (e) => {
    seen.push(e.isDir ? `${e.rel}/` : e.rel);
  });
  return seen.sort();
}

describe("walkTree", () => {
  test("skips .git, node_modules and ignored entries", async () => {
    expect(await collect(join(dir, "repo"), dir)).toEqual([".gitignore", "pkg/", "pkg/a.ts"]);
    expect(await collect(join(dir, "plain"), dir)).toEqual([".ignore", "keep/", "keep/z.ts"]);
  });

  test("a walk below a git top still applies the top's ignore file", async () => {
    expect(await collect(join(dir, "repo/pkg"), "/")).toEqual(["a.ts"]);
  });

  test("visit returning true stops the walk", async () => {
    let count = 0;
    await walkTree(join(dir, "plain"), { cwd: dir }, () => ++count === 2);
    expect(count).toBe(2);
  });

  test("an aborted signal stops the walk with the abort reason", async () => {
    const controller = new AbortController();
    controller.abort(new Error("stop walking"));
    let visited = 0;
    const err = await walkTree(dir, { cwd: dir, signal: controller.signal }, () => {
      visited++;
    }).catch((e) => e);
    expect(err.message).toBe("stop walking");
    expect(visited).toBe(0);
  });

  test("a symlink loop inside the tree is listed but not followed", async () => {
    const loop = join(dir, "loop");
    await mkdir(loop);
    await symlink(loop, join(loop, "self"));
    expect(await collect(loop, dir)).toEqual(["self/"]);
  });
});
