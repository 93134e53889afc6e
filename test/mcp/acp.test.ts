/** MCP servers an ACP editor hands over in session/new, through the ACP SDK's client. */
import { afterEach, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { f, startAcp, type AcpNova } from "../acp/client.ts";
import { everythingHttp, everythingStdio, filesystem, fixture } from "./support.ts";

/** these tests spawn nova and MCP servers */
const SLOW = 60_000;
let n: AcpNova | undefined;
afterEach(async () => {
  await n?.close();
  n = undefined;
});

test(
  "initialize advertises http and sse; session/new servers (stdio and http) are connected for that session",
  async () => {
    const http = await everythingHttp("streamableHttp");
    try {
      n = await startAcp({ permission: () => ({ outcome: { outcome: "selected", optionId: "allow_once" } }) });
      const init = await n.initialize();
      expect(init.agentCapabilities?.mcpCapabilities).toEqual({ http: true, sse: true });
      writeFileSync(join(n.cwd, "note.txt"), "from the editor's server");
      const { sessionId } = await n.conn.newSession({
        cwd: n.cwd,
        mcpServers: [
          { name: "everything", command: everythingStdio.command, args: everythingStdio.args, env: [{ name: "UNUSED", value: "1" }] },
          { type: "http", name: "web", url: http.url, headers: [] },
          { name: "fs", ...filesystem(n.cwd), env: [] },
        ],
      });
      n.server.enqueue(
        f.toolCalls([
          { id: "e1", name: "mcp__everything__echo", args: { message: "editor tools" } },
          { id: "h1", name: "mcp__web__get-sum", args: { a: 2, b: 3 } },
          { id: "w1", name: "mcp__fs__write_file", args: { path: join(n.cwd, "out.txt"), content: "written" } },
        ]),
        f.text("done"),
      );
      const answer = await n.conn.prompt({ sessionId, prompt: [{ type: "text", text: "use the editor's servers" }] });
      expect(answer.stopReason).toBe("end_turn");
      const offered = n.server.requests[0]!.body.tools.map((t: any) => t.function.name);
      expect(offered).toEqual(expect.arrayContaining(["mcp__everything__echo", "mcp__web__get-sum", "mcp__fs__write_file"]));
      expect(n.client.toolUpdates("e1").at(-1)).toMatchObject({ status: "completed" });
      expect(JSON.stringify(n.client.toolUpdates("e1").at(-1)!.content)).toContain("Echo: editor tools");
      expect(JSON.stringify(n.client.toolUpdates("h1").at(-1)!.content)).toContain("5");
      expect(n.client.permissionRequests).toHaveLength(1);
      expect(n.client.permissionRequests[0]!.toolCall).toMatchObject({ title: "mcp__fs__write_file", rawInput: { content: "written" } });
      expect(await Bun.file(join(n.cwd, "out.txt")).text()).toBe("written");

      const other = await n.conn.newSession({ cwd: n.cwd, mcpServers: [] });
      n.server.enqueue(f.text("plain"));
      await n.conn.prompt({ sessionId: other.sessionId, prompt: [{ type: "text", text: "no servers here" }] });
      expect((n.server.requests[2]!.body.tools ?? []).some((t: any) => t.function.name.startsWith("mcp__"))).toBe(false);
    } finally {
      await http.stop();
    }
  },
  SLOW,
);

test(
  "the editor sees each of its servers' status as a _nova/mcp_server_status notification for its session",
  async () => {
    n = await startAcp();
    await n.initialize();
    const { sessionId } = await n.conn.newSession({
      cwd: n.cwd,
      mcpServers: [
        { name: "everything", command: everythingStdio.command, args: everythingStdio.args, env: [] },
        { name: "missing", command: join(n.cwd, "no-such-server"), args: [], env: [] },
        { name: "quiet", ...fixture("silent"), env: [] },
      ],
    });
    const status = (name: string, value: string) => (p: Record<string, unknown>) => p.sessionId === sessionId && p.name === name && p.status === value;
    await n.client.waitForExtension("_nova/mcp_server_status", status("everything", "connected"));
    await n.client.waitForExtension("_nova/mcp_server_status", status("missing", "failed"));
    const connected = n.client.extensions.find((e) => status("everything", "connected")(e.params))!.params;
    expect(connected).toMatchObject({ source: "acp", tools: expect.arrayContaining(["mcp__everything__echo"]) });
    const failed = n.client.extensions.find((e) => status("missing", "failed")(e.params))!.params;
    expect(failed.error).toContain("no-such-server");
    // a server still connecting when the session opens is reported as such
    expect(n.client.extensions.some((e) => status("quiet", "connecting")(e.params))).toBe(true);
  },
  SLOW,
);

test(
  "session/load connects the servers it hands over for the loaded session",
  async () => {
    n = await startAcp();
    await n.initialize();
    const { sessionId } = await n.conn.newSession({ cwd: n.cwd, mcpServers: [] });
    await n.conn.loadSession({ sessionId, cwd: n.cwd, mcpServers: [{ name: "everything", command: everythingStdio.command, args: everythingStdio.args, env: [] }] });
    await n.client.waitForExtension("_nova/mcp_server_status", (p) => p.sessionId === sessionId && p.name === "everything" && p.status === "connected");
    n.server.enqueue(f.toolCalls([{ id: "l1", name: "mcp__everything__echo", args: { message: "after load" } }]), f.text("done"));
    await n.conn.prompt({ sessionId, prompt: [{ type: "text", text: "echo" }] });
    expect(JSON.stringify(n.client.toolUpdates("l1").at(-1)!.content)).toContain("Echo: after load");
  },
  SLOW,
);

test(
  "a malformed server in session/new is refused naming it",
  async () => {
    n = await startAcp();
    await n.initialize();
    await expect(n.conn.newSession({ cwd: n.cwd, mcpServers: [{ name: "bad", command: "", args: [], env: [] }] })).rejects.toMatchObject({
      code: -32602,
      message: expect.stringContaining("mcpServers.bad: command"),
    });
  },
  SLOW,
);
