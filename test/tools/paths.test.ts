import { describe, expect, test } from "bun:test";
import { homedir } from "node:os";
import { resolvePath, statPath } from "../../src/tools/paths.ts";

describe("resolvePath", () => {
  test("relative against the cwd, absolute kept, ~ is home, a leading @ dropped", () => {
    expect(resolvePath("/w/p", "src/a.ts")).toBe("/w/p/src/a.ts");
    expect(resolvePath("/w/p", "../q")).toBe("/w/q");
    expect(resolvePath("/w/p", "/etc/hosts")).toBe("/etc/hosts");
    expect(resolvePath("/w/p", "~/x")).toBe(`${homedir()}/x`);
    expect(resolvePath("/w/p", "~")).toBe(homedir());
    expect(resolvePath("/w/p", "@src/a.ts")).toBe("/w/p/src/a.ts");
  });
});

describe("statPath", () => {
  test("a missing path is a ToolError in the model's spelling", async () => {
    const err = await statPath("read", "nope.txt", "/definitely/not/here/nope.txt").catch((e) => e);
    expect(err.name).toBe("ToolError");
    expect(err.message).toBe("read: nope.txt does not exist (resolved to /definitely/not/here/nope.txt)");
  });
});
