import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdir, mkdtemp, readFile, readdir, rm, stat, symlink, writeFile, chmod } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { writeTool } from "../../src/tools/write.ts";
import { toolContext } from "./context.ts";

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "nova-write-"));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

const run = (args: Record<string, unknown>) => writeTool.execute(args, toolContext(dir));

describe("write", () => {
  test("creates parent folders and reports bytes written", async () => {
    const result = await run({ path: "a/b/c.txt", content: "héllo" });
    expect(await readFile(join(dir, "a/b/c.txt"), "utf8")).toBe("héllo");
    expect((result.content[0] as { text: string }).text).toBe("Wrote 6 bytes to a/b/c.txt");
  });

  test("replaces a file, keeps its mode and leaves no temp file behind", async () => {
    const path = join(dir, "script.sh");
    await writeFile(path, "old");
    await chmod(path, 0o755);
    await run({ path: "script.sh", content: "new" });
    expect(await readFile(path, "utf8")).toBe("new");
    expect((await stat(path)).mode & 0o777).toBe(0o755);
    expect((await readdir(dir)).filter((n) => n.endsWith(".tmp"))).toEqual([]);
  });

  test("writes through a symlink to its target", async () => {
    await writeFile(join(dir, "target.txt"), "before");
    await symlink(join(dir, "target.txt"), join(dir, "link.txt"));
    await run({ path: "link.txt", content: "after" });
    expect(await readFile(join(dir, "target.txt"), "utf8")).toBe("after");
  });

  test("writing onto a directory is an error naming it", async () => {
    await mkdir(join(dir, "adir"));
    const err = await run({ path: "adir", content: "x" }).catch((e) => e);
    expect(err.message).toContain("cannot write adir");
  });
});
