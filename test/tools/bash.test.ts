import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createBashTool } from "../../src/tools/bash.ts";
import type { ToolResult } from "../../src/tools/types.ts";
import { toolContext } from "./context.ts";

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "nova-bash-"));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

const tool = createBashTool({ ask: [], allow: [], deny: ["shutdown *"] });
const text = (r: ToolResult) => (r.content[0] as { text: string }).text;

describe("bash tool", () => {
  test("success: output and exit code in the text and details", async () => {
    const r = await tool.execute({ command: "echo hi" }, toolContext(dir));
    expect(text(r)).toBe("hi\n\n[exit code: 0]");
    expect(r.isError).toBe(false);
    expect((r.details as { exitCode: number }).exitCode).toBe(0);
  });

  test("a non-zero exit is an error result that keeps the output", async () => {
    const r = await tool.execute({ command: "echo partial; exit 2" }, toolContext(dir));
    expect(r.isError).toBe(true);
    expect(text(r)).toBe("partial\n\n[exit code: 2]");
    expect((r.details as { exitCode: number }).exitCode).toBe(2);
  });

  test("streams partial output through onUpdate", async () => {
    const ctx = toolContext(dir);
    await tool.execute({ command: "echo streamed" }, ctx);
    expect(ctx.updates.length).toBeGreaterThan(0);
    expect(JSON.stringify(ctx.updates.at(-1))).toContain("streamed");
  });

  test("a timeout is reported", async () => {
    const r = await tool.execute({ command: "sleep 5", timeout: 0.2 }, toolContext(dir));
    expect(r.isError).toBe(true);
    expect(text(r)).toContain("Timed out after 0.2 s");
    expect((r.details as { timedOut: boolean }).timedOut).toBe(true);
  });

  test("deny never runs and names the rule", async () => {
    const err = await tool.execute({ command: `touch ran; shutdown now` }, toolContext(dir)).catch((e) => e);
    expect(err.message).toContain('deny rule "shutdown *"');
    expect(await Bun.file(join(dir, "ran")).exists()).toBe(false);
  });

  test("a flagged command asks, and runs only when approved", async () => {
    const asked: unknown[] = [];
    const approve = toolContext(dir, {
      askPermission: async (req) => {
        asked.push(req);
        return true;
      },
    });
    const r = await tool.execute({ command: "mkdir -p d && rm -rf d && echo removed" }, approve);
    expect(text(r)).toContain("removed");
    expect(asked).toEqual([{ toolName: "bash", kind: "bash", command: "mkdir -p d && rm -rf d && echo removed", reason: "rm is recursive or forced", confinable: true }]);

    const refuse = toolContext(dir, { askPermission: async () => false });
    const err = await tool.execute({ command: "touch marker; rm -rf marker" }, refuse).catch((e) => e);
    expect(err.message).toContain("permission denied by the user");
    expect(await Bun.file(join(dir, "marker")).exists()).toBe(false);
  });

  test("a flagged command with no one to ask is refused clearly", async () => {
    const err = await tool.execute({ command: "sudo true" }, toolContext(dir)).catch((e) => e);
    expect(err.message).toContain("no one to ask");
  });

  test("the ask gets the tool's abort signal", async () => {
    const controller = new AbortController();
    const ctx = toolContext(dir, {
      signal: controller.signal,
      askPermission: (_req, signal) => new Promise((_resolve, reject) => signal.addEventListener("abort", () => reject(new Error("aborted while asking")))),
    });
    const pending = tool.execute({ command: "rm -rf x" }, ctx);
    controller.abort();
    expect((await pending.catch((e) => e)).message).toBe("aborted while asking");
  });

  test("without a UI the command runs in a PTY", async () => {
    const r = await tool.execute({ command: "[ -t 1 ] && echo tty || echo pipe" }, toolContext(dir, { hasUI: false }));
    expect(text(r)).toStartWith("tty");
  });
});
