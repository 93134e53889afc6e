/** MCP tools through the permission gate: the question's kind and call id, each mode, and set_tools, with the real filesystem server. */
import { expect, test } from "bun:test";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { promptAndSettle, scenarios, type Scenario } from "../support/scenario.ts";
import { tempDir, type Frame } from "../support/nova.ts";
import { filesystem, offered, statusOf } from "./support.ts";

const open = scenarios();
const SLOW = 60_000;
const toolEnd = (frames: Frame[], id: string) => frames.find((f) => f.type === "tool_execution_end" && f.toolCallId === id)!;

async function withFs(): Promise<{ s: Scenario; dir: string }> {
  const dir = tempDir("nova-mcp-fs-");
  writeFileSync(join(dir, "a.txt"), "alpha");
  const s = await open({ cwd: dir, extra: { mcpServers: { fs: filesystem(dir) } } });
  await statusOf(s.nova, "fs", "connected");
  return { s, dir };
}

test(
  "default asks with kind mcp and the call's id; plan refuses a mutating MCP tool and runs a read-only one; dontAsk refuses unasked; acceptEdits still asks; bypass runs it",
  async () => {
    const { s, dir } = await withFs();
    const write = (id: string, name: string) => s.f.toolCalls([{ id, name: "mcp__fs__write_file", args: { path: join(dir, name), content: "beta" } }]);
    s.server.enqueue(write("w1", "b.txt"), s.f.text("done"));
    const from = s.nova.frames.length;
    await s.nova.request({ type: "prompt", message: "write" });
    const ask = await s.nova.waitFor((f) => f.type === "permission_request", from);
    expect(ask).toMatchObject({ kind: "mcp", toolCallId: "w1", toolName: "mcp__fs__write_file", options: ["allow_once", "allow_always", "reject"] });
    await s.nova.request({ type: "permission_response", requestId: ask.requestId, approved: false });
    await s.nova.waitFor((f) => f.type === "agent_settled", from);
    expect(existsSync(join(dir, "b.txt"))).toBe(false);

    await s.nova.request({ type: "set_permission_mode", mode: "plan" });
    s.server.enqueue(
      s.f.toolCalls([
        { id: "r1", name: "mcp__fs__read_text_file", args: { path: join(dir, "a.txt") } },
        { id: "w2", name: "mcp__fs__write_file", args: { path: join(dir, "c.txt"), content: "gamma" } },
      ]),
      s.f.text("planned"),
    );
    const planned = await promptAndSettle(s.nova, "plan it");
    expect(toolEnd(planned, "r1").result.content[0].text).toBe("alpha");
    expect(toolEnd(planned, "w2").result.content[0].text).toContain("Plan mode is on");
    expect(planned.some((f) => f.type === "permission_request")).toBe(false);
    expect(existsSync(join(dir, "c.txt"))).toBe(false);

    await s.nova.request({ type: "set_permission_mode", mode: "dontAsk" });
    s.server.enqueue(write("w3", "d.txt"), s.f.text("refused"));
    const refused = await promptAndSettle(s.nova, "write");
    expect(toolEnd(refused, "w3").result.content[0].text).toContain("permissions.mcp.allow");
    expect(refused.some((f) => f.type === "permission_request")).toBe(false);

    // acceptEdits accepts write/edit only: an MCP tool still asks
    await s.nova.request({ type: "set_permission_mode", mode: "acceptEdits" });
    s.server.enqueue(write("w5", "f.txt"), s.f.text("asked"));
    const accepting = s.nova.frames.length;
    await s.nova.request({ type: "prompt", message: "write" });
    const asked = await s.nova.waitFor((f) => f.type === "permission_request", accepting);
    expect(asked).toMatchObject({ kind: "mcp", toolCallId: "w5" });
    await s.nova.request({ type: "permission_response", requestId: asked.requestId, approved: true });
    await s.nova.waitFor((f) => f.type === "agent_settled", accepting);
    expect(readFileSync(join(dir, "f.txt"), "utf8")).toBe("beta");

    await s.nova.request({ type: "set_permission_mode", mode: "bypass" });
    s.server.enqueue(write("w4", "e.txt"), s.f.text("written"));
    const bypassed = await promptAndSettle(s.nova, "write");
    expect(bypassed.some((f) => f.type === "permission_request")).toBe(false);
    expect(readFileSync(join(dir, "e.txt"), "utf8")).toBe("beta");
  },
  SLOW,
);

test(
  "set_tools turns an MCP tool off and on like a built-in one",
  async () => {
    const { s } = await withFs();
    const off = await s.nova.request({ type: "set_tools", disabled: ["mcp__fs__write_file"] });
    expect(off.data.tools).toContain("mcp__fs__read_text_file");
    expect(off.data.tools).not.toContain("mcp__fs__write_file");
    s.server.enqueue(s.f.text("ok"));
    await promptAndSettle(s.nova, "hi");
    expect(offered(s.server.requests.at(-1)!.body)).not.toContain("mcp__fs__write_file");
    const on = await s.nova.request({ type: "set_tools", enabled: ["mcp__fs__write_file"] });
    expect(on.data.tools).toContain("mcp__fs__write_file");
  },
  SLOW,
);
