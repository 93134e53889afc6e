import { describe, expect, test } from "bun:test";
import { builtinTools } from "../../src/tools/index.ts";

describe("builtinTools", () => {
  const tools = builtinTools({ permissions: { ask: [], allow: [], deny: [] } });

  test("offers the nine built-in tools by their Pi names", () => {
    expect(tools.map((t) => t.name)).toEqual(["read", "write", "edit", "bash", "grep", "find", "ls", "view_image", "zoom"]);
  });

  test("each has an object JSON Schema with Pi's argument names", () => {
    const props = Object.fromEntries(tools.map((t) => [t.name, Object.keys((t.parameters.properties ?? {}) as object)]));
    expect(props).toEqual({
      read: ["path", "offset", "limit"],
      write: ["path", "content"],
      edit: ["path", "oldText", "newText", "edits"],
      bash: ["command", "timeout"],
      grep: ["pattern", "path", "glob", "ignoreCase", "literal", "context", "limit"],
      find: ["pattern", "path", "limit"],
      ls: ["path", "limit"],
      view_image: ["path"],
      zoom: ["path", "x", "y", "width", "height", "scale"],
    });
    for (const t of tools) {
      expect(t.parameters.type).toBe("object");
      expect(t.parameters.$schema).toBeUndefined();
      expect(t.description.length).toBeGreaterThan(20);
    }
  });

  test("bad arguments are a ToolError naming the field and the value", async () => {
    const read = tools.find((t) => t.name === "read")!;
    const ctx = { cwd: "/", signal: new AbortController().signal, onUpdate: () => {}, hasUI: true };
    const err = await read.execute({ path: "x", offset: 0 }, ctx).catch((e) => e);
    expect(err.name).toBe("ToolError");
    expect(err.message).toMatch(/^read: invalid arguments: offset: .*\(got 0\)$/);
  });
});
