/** MCP servers through the real process in rpc mode: real servers from npm and fixtures that misbehave. */
import { describe, expect, test } from "bun:test";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { promptAndSettle, scenarios } from "../support/scenario.ts";
import { tempDir, type Frame } from "../support/nova.ts";
import { everythingHttp, everythingStdio, everythingTeed, filesystem, fixture, offered, statusOf } from "./support.ts";

const open = scenarios();
/** these tests spawn nova and MCP servers, several at once on a busy machine */
const SLOW = 60_000;
const toolEnd = (frames: Frame[], id?: string) => frames.find((f) => f.type === "tool_execution_end" && (!id || f.toolCallId === id))!;

describe("servers from the config", () => {
  test(
    "connect in the background: ready and get_state do not wait, then status frames and get_mcp_servers",
    async () => {
      const s = await open({ extra: { mcpServers: { slow: fixture("silent"), everything: everythingStdio } } });
      expect(s.nova.frames[0]!.type).toBe("ready");
      const state = await s.nova.request({ type: "get_state" });
      expect(state.success).toBe(true);
      const connected = await statusOf(s.nova, "everything", "connected");
      expect(connected).toMatchObject({ source: "config", tools: expect.arrayContaining(["mcp__everything__echo", "mcp__everything__get-tiny-image"]) });
      const list = await s.nova.request({ type: "get_mcp_servers" });
      expect(list.data.servers).toEqual([
        { name: "slow", source: "config", status: "connecting", tools: [] },
        expect.objectContaining({ name: "everything", source: "config", status: "connected" }),
      ]);
      const dump = (await s.nova.request({ type: "get_state" })).data.dumpTools;
      const echo = dump.find((t: any) => t.name === "mcp__everything__echo");
      expect(echo.description).toBe("Echoes back the input string");
      expect(echo.parameters).toMatchObject({ type: "object", properties: { message: { type: "string" } } });
    },
    SLOW,
  );

  test(
    "text, image, structured and error results; the model sees the server's schema",
    async () => {
      const s = await open({ extra: { mcpServers: { everything: everythingStdio } } });
      await statusOf(s.nova, "everything", "connected");
      s.server.enqueue(
        s.f.toolCalls([
          { id: "c1", name: "mcp__everything__echo", args: { message: "hi there" } },
          { id: "c2", name: "mcp__everything__get-tiny-image", args: {} },
          { id: "c3", name: "mcp__everything__get-structured-content", args: { location: "New York" } },
          { id: "c4", name: "mcp__everything__get-sum", args: { a: "one", b: 2 } },
        ]),
        s.f.text("done"),
      );
      const frames = await promptAndSettle(s.nova, "use the tools");
      expect(offered(s.server.requests[0]!.body)).toContain("mcp__everything__echo");
      const echoSchema = s.server.requests[0]!.body.tools.find((t: any) => t.function.name === "mcp__everything__echo").function.parameters;
      expect(echoSchema.properties.message.type).toBe("string");
      expect(toolEnd(frames, "c1")).toMatchObject({ isError: false, result: { content: [{ type: "text", text: "Echo: hi there" }] } });
      const image = toolEnd(frames, "c2").result.content;
      expect(image.map((c: any) => c.type)).toEqual(["text", "image", "text"]);
      expect(image[1]).toMatchObject({ type: "image", mimeType: "image/png", data: expect.stringMatching(/^iVBOR/) });
      expect(toolEnd(frames, "c3").result.details.structuredContent).toMatchObject({ temperature: expect.any(Number) });
      const sum = toolEnd(frames, "c4");
      expect(sum.isError).toBe(true);
      expect(JSON.stringify(sum.result.content)).toMatch(/invalid|expected/i);
    },
    SLOW,
  );

  test(
    "progress becomes tool_execution_update; abort cancels the call at the server",
    async () => {
      const s = await open({ extra: { mcpServers: { everything: everythingStdio, fx: fixture("changing") } } });
      await statusOf(s.nova, "everything", "connected");
      await statusOf(s.nova, "fx", "connected");
      s.server.enqueue(s.f.toolCalls([{ id: "p1", name: "mcp__everything__trigger-long-running-operation", args: { duration: 1, steps: 2 } }]), s.f.text("ok"));
      const frames = await promptAndSettle(s.nova, "progress");
      const updates = frames.filter((f) => f.type === "tool_execution_update");
      // the last notification may lose the race with the result, which ends the call
      expect(updates.length).toBeGreaterThanOrEqual(1);
      expect(updates[0]!.partialResult.details).toEqual({ server: "everything", progress: 1, total: 2 });
      expect(updates[0]!.partialResult.content).toEqual([{ type: "text", text: "(1/2)" }]);
      expect(toolEnd(frames).result.content[0].text).toContain("Long running operation completed");

      s.server.enqueue(s.f.toolCalls([{ id: "w1", name: "mcp__fx__wait", args: {} }]));
      const from = s.nova.frames.length;
      await s.nova.request({ type: "prompt", message: "wait" });
      await s.nova.waitForStderr("[mcp fx] wait: started");
      await s.nova.request({ type: "abort" });
      const end = await s.nova.waitFor((f) => f.type === "tool_execution_end", from);
      expect(end.isError).toBe(true);
      expect(end.result.content[0].text).toContain("aborted");
      await s.nova.waitFor((f) => f.type === "agent_settled", from);
      await s.nova.waitForStderr("[mcp fx] wait: cancelled by the client");
    },
    SLOW,
  );

  test(
    "abort during server-everything's long-running operation sends it notifications/cancelled and ends the call as aborted",
    async () => {
      const s = await open({ extra: { mcpServers: { everything: everythingTeed } } });
      await statusOf(s.nova, "everything", "connected");
      s.server.enqueue(s.f.toolCalls([{ id: "l1", name: "mcp__everything__trigger-long-running-operation", args: { duration: 60, steps: 60 } }]));
      const from = s.nova.frames.length;
      await s.nova.request({ type: "prompt", message: "long" });
      await s.nova.waitFor((f) => f.type === "tool_execution_update" && f.toolCallId === "l1", from);
      await s.nova.request({ type: "abort" });
      const end = await s.nova.waitFor((f) => f.type === "tool_execution_end", from);
      expect(end).toMatchObject({ toolCallId: "l1", isError: true });
      expect(end.result.content[0].text).toContain("aborted");
      await s.nova.waitFor((f) => f.type === "agent_settled", from);
      await s.nova.waitForStderr("[mcp everything] tee nova->server notifications/cancelled #1");
    },
    SLOW,
  );

  test(
    "a call that outlives callTimeoutMs ends with a clear error",
    async () => {
      const s = await open({ extra: { mcpServers: { fx: fixture("changing") }, mcp: { callTimeoutMs: 300 } } });
      await statusOf(s.nova, "fx", "connected");
      s.server.enqueue(s.f.toolCalls([{ id: "w1", name: "mcp__fx__wait", args: {} }]), s.f.text("ok"));
      const frames = await promptAndSettle(s.nova, "wait");
      expect(toolEnd(frames)).toMatchObject({
        isError: true,
        result: { content: [{ type: "text", text: 'MCP server "fx" did not answer tools/call wait within 0.3 s; nova cancelled the call' }] },
      });
    },
    SLOW,
  );

  test(
    "tools/list_changed refreshes the tools before the next model request",
    async () => {
      const s = await open({ extra: { mcpServers: { fx: fixture("changing") }, permissions: { mcp: { allow: ["fx__*"] } } } });
      await statusOf(s.nova, "fx", "connected");
      s.server.enqueue(
        s.f.toolCalls([{ id: "a1", name: "mcp__fx__add_tool", args: {} }]),
        s.f.toolCalls([{ id: "a2", name: "mcp__fx__added_tool", args: { n: 7 } }]),
        s.f.text("ok"),
      );
      const frames = await promptAndSettle(s.nova, "add");
      expect(offered(s.server.requests[0]!.body)).not.toContain("mcp__fx__added_tool");
      expect(offered(s.server.requests[1]!.body)).toContain("mcp__fx__added_tool");
      expect(toolEnd(frames, "a2").result.content).toEqual([{ type: "text", text: "added 7" }]);
    },
    SLOW,
  );

  test(
    "server-everything's tools/list_changed (its conditional tools, registered once initialized) makes nova list again",
    async () => {
      const s = await open({ extra: { mcpServers: { everything: everythingTeed } } });
      await s.nova.waitForStderr("[mcp everything] tee server->nova notifications/tools/list_changed #1");
      // the first listing and the one the notification asked for, in either order; the second comes after it
      await s.nova.waitForStderr("[mcp everything] tee nova->server tools/list #2");
      expect(s.nova.stderr.indexOf("tools/list #2")).toBeGreaterThan(s.nova.stderr.indexOf("notifications/tools/list_changed #1"));
      // the listing's answer: a status frame with the tools (get_state does not wait for servers)
      await s.nova.waitFor((f) => f.type === "mcp_server_status" && f.name === "everything" && f.tools.includes("mcp__everything__echo"));
      const servers = (await s.nova.request({ type: "get_mcp_servers" })).data.servers;
      // its task-only tool (simulate-research-query) needs task-augmented calls, which nova does not make
      expect(servers[0].tools).toContain("mcp__everything__echo");
      expect(servers[0].tools).not.toContain("mcp__everything__simulate-research-query");
    },
    SLOW,
  );

  test(
    "a server that exits on its first call: an error naming it, status frames, a restart on next use, stderr prefixed",
    async () => {
      const s = await open({ extra: { mcpServers: { flaky: fixture("exit-on-call") }, permissions: { mcp: { allow: ["flaky__boom"] } } } });
      await statusOf(s.nova, "flaky", "connected");
      s.server.enqueue(s.f.toolCalls([{ id: "b1", name: "mcp__flaky__boom", args: {} }]), s.f.text("it broke"));
      const from = s.nova.frames.length;
      const frames = await promptAndSettle(s.nova, "boom");
      const end = toolEnd(frames);
      expect(end.isError).toBe(true);
      expect(end.result.content[0].text).toContain('MCP server "flaky"');
      expect(await statusOf(s.nova, "flaky", "failed", from)).toMatchObject({ error: "the server process exited" });
      expect(s.nova.stderr).toContain("[mcp flaky] boom: exiting");
      expect(s.nova.frames.every((f) => f.type !== "__unterminated__")).toBe(true);

      // the run's next model request starts it again in the background; the next call waits for it
      s.server.enqueue(s.f.toolCalls([{ id: "b2", name: "mcp__flaky__boom", args: {} }]), s.f.text("broke again"));
      const second = await promptAndSettle(s.nova, "boom again");
      expect(toolEnd(second).result.content[0].text).toContain('MCP server "flaky"');
      const statuses = s.nova.frames
        .slice(from)
        .filter((f) => f.type === "mcp_server_status")
        .map((f) => f.status);
      expect(statuses).toEqual(["failed", "connecting", "connected", "failed"]);
      expect((await s.nova.request({ type: "get_state" })).success).toBe(true);
    },
    SLOW,
  );

  test(
    "a server that never answers initialize: the run waits mcp.waitMs, goes on and says so once; it fails at connectTimeoutMs",
    async () => {
      const s = await open({ args: ["--no-session", "--mode", "rpc-ui"], extra: { mcpServers: { silent: fixture("silent") }, mcp: { waitMs: 300, connectTimeoutMs: 4000 } } });
      s.server.enqueue(s.f.text("first"), s.f.text("second"));
      const frames = await promptAndSettle(s.nova, "hi");
      expect(frames.at(-1)!.type).toBe("agent_settled");
      await promptAndSettle(s.nova, "again");
      const notices = s.nova.frames.filter((f) => f.type === "extension_ui_request" && f.method === "notify" && String(f.message).includes('"silent"'));
      expect(notices).toHaveLength(1);
      expect(notices[0]).toMatchObject({ notifyType: "warning", message: 'MCP server "silent" is still connecting after 0.3 s; going on without its tools' });
      expect(await statusOf(s.nova, "silent", "failed")).toMatchObject({ error: "it did not answer initialize within 4 s" });
    },
    SLOW,
  );

  test(
    "permissions: asked like a flagged command with the arguments, unless readOnlyHint or an allow rule; deny blocks",
    async () => {
      const dir = tempDir("nova-mcp-fs-");
      writeFileSync(join(dir, "a.txt"), "alpha");
      const s = await open({ cwd: dir, extra: { mcpServers: { fs: filesystem(dir) }, permissions: { mcp: { deny: ["fs__move_file"] } } } });
      await statusOf(s.nova, "fs", "connected");
      const target = join(dir, "b.txt");
      s.server.enqueue(
        s.f.toolCalls([
          { id: "r1", name: "mcp__fs__read_text_file", args: { path: join(dir, "a.txt") } },
          { id: "w1", name: "mcp__fs__write_file", args: { path: target, content: "beta" } },
          { id: "m1", name: "mcp__fs__move_file", args: { source: target, destination: join(dir, "c.txt") } },
        ]),
        s.f.text("done"),
      );
      const from = s.nova.frames.length;
      await s.nova.request({ type: "prompt", message: "files" });
      const ask = await s.nova.waitFor((f) => f.type === "permission_request", from);
      expect(ask).toMatchObject({ toolName: "mcp__fs__write_file", arguments: { path: target, content: "beta" } });
      expect(ask.command).toContain("write_file");
      await s.nova.request({ type: "permission_response", requestId: ask.requestId, approved: true });
      await s.nova.waitFor((f) => f.type === "agent_settled", from);
      const frames = s.nova.frames.slice(from);
      expect(frames.filter((f) => f.type === "permission_request")).toHaveLength(1);
      expect(toolEnd(frames, "r1").result.content[0].text).toBe("alpha");
      expect(readFileSync(target, "utf8")).toBe("beta");
      expect(toolEnd(frames, "m1")).toMatchObject({
        isError: true,
        result: { content: [{ text: 'mcp__fs__move_file: blocked by the deny rule "fs__move_file" in permissions.mcp' }] },
      });
    },
    SLOW,
  );

  test(
    "sub-agents started by the task tool get the parent's MCP tools",
    async () => {
      const s = await open({ extra: { mcpServers: { everything: everythingStdio } } });
      await statusOf(s.nova, "everything", "connected");
      s.server.enqueue(
        s.f.toolCalls([{ id: "k1", name: "task", args: { task: "echo something" } }]),
        s.f.toolCalls([{ id: "k2", name: "mcp__everything__echo", args: { message: "from the child" } }]),
        s.f.text("child done"),
        s.f.text("parent done"),
      );
      await promptAndSettle(s.nova, "delegate");
      expect(offered(s.server.requests[1]!.body)).toContain("mcp__everything__echo");
      expect(JSON.stringify(s.server.requests[2]!.body.messages)).toContain("Echo: from the child");
    },
    SLOW,
  );

  test(
    "prompts are commands, and /mcp__server__prompt expands through prompts/get",
    async () => {
      const s = await open({ extra: { mcpServers: { everything: everythingStdio } } });
      await statusOf(s.nova, "everything", "connected");
      for (const type of ["get_commands", "get_available_commands"]) {
        const commands = (await s.nova.request({ type })).data.commands;
        expect(commands).toContainEqual({
          name: "mcp__everything__args-prompt",
          description: expect.any(String),
          arguments: [
            { name: "city", description: "Name of the city", required: true },
            { name: "state", required: false, description: undefined },
          ].map((a) => expect.objectContaining({ name: a.name, required: a.required })),
          source: "mcp",
        });
      }
      s.server.enqueue(s.f.text("sunny"));
      await promptAndSettle(s.nova, '/mcp__everything__args-prompt city=Paris state="Île-de-France"');
      const sent = JSON.stringify(s.server.requests[0]!.body.messages);
      expect(sent).toContain("Paris");
      expect(sent).not.toContain("/mcp__everything__args-prompt");
    },
    SLOW,
  );
});

describe("servers over HTTP", () => {
  test(
    "streamable HTTP (server-everything streamableHttp)",
    async () => {
      const http = await everythingHttp("streamableHttp");
      try {
        const s = await open({ extra: { mcpServers: { web: { url: http.url } } } });
        await statusOf(s.nova, "web", "connected");
        s.server.enqueue(
          s.f.toolCalls([
            { id: "h1", name: "mcp__web__echo", args: { message: "over http" } },
            { id: "h2", name: "mcp__web__get-tiny-image", args: {} },
            { id: "h3", name: "mcp__web__trigger-long-running-operation", args: { duration: 0.4, steps: 2 } },
            { id: "h4", name: "mcp__web__get-sum", args: { a: "one", b: 2 } },
          ]),
          s.f.text("ok"),
        );
        const frames = await promptAndSettle(s.nova, "http");
        expect(toolEnd(frames, "h1").result.content).toEqual([{ type: "text", text: "Echo: over http" }]);
        expect(toolEnd(frames, "h2").result.content[1].type).toBe("image");
        expect(frames.filter((f) => f.type === "tool_execution_update" && f.toolCallId === "h3").length).toBeGreaterThanOrEqual(1);
        expect(toolEnd(frames, "h4").isError).toBe(true);
      } finally {
        await http.stop();
      }
    },
    SLOW,
  );

  test(
    "a URL that only speaks the legacy SSE transport is reached through the fallback",
    async () => {
      const sse = await everythingHttp("sse");
      try {
        const s = await open({ extra: { mcpServers: { old: { url: sse.url } } } });
        await statusOf(s.nova, "old", "connected");
        s.server.enqueue(s.f.toolCalls([{ id: "s1", name: "mcp__old__echo", args: { message: "sse" } }]), s.f.text("ok"));
        const frames = await promptAndSettle(s.nova, "sse");
        expect(toolEnd(frames).result.content).toEqual([{ type: "text", text: "Echo: sse" }]);
      } finally {
        await sse.stop();
      }
    },
    SLOW,
  );
});

describe("servers from the RPC host", () => {
  test(
    "set_mcp_servers replaces the host's set and answers the names; bad specs are refused by field",
    async () => {
      const s = await open({ extra: { mcpServers: { cfg: fixture("changing") } } });
      const set = await s.nova.request({ type: "set_mcp_servers", servers: { one: everythingStdio, two: { ...fixture("changing"), enabled: false } } });
      expect(set.data).toEqual({ serverNames: ["one", "two"] });
      await statusOf(s.nova, "one", "connected");
      expect((await s.nova.request({ type: "get_mcp_servers" })).data.servers.map((x: any) => [x.name, x.source, x.status])).toEqual([
        ["cfg", "config", expect.stringMatching(/connecting|connected/)],
        ["one", "rpc", "connected"],
        ["two", "rpc", "disabled"],
      ]);
      await s.nova.request({ type: "set_mcp_servers", servers: {} });
      const after = (await s.nova.request({ type: "get_mcp_servers" })).data.servers;
      expect(after.map((x: any) => x.name)).toEqual(["cfg"]);
      expect((await s.nova.request({ type: "get_state" })).data.dumpTools.some((t: any) => t.name.startsWith("mcp__one__"))).toBe(false);

      const bad = await s.nova.request({ type: "set_mcp_servers", servers: { x: { command: "" } } });
      expect(bad).toMatchObject({ success: false, error: expect.stringContaining("servers.x: command") });
      const neither = await s.nova.request({ type: "set_mcp_servers", servers: { y: { args: [] } } });
      expect(neither.error).toContain('servers.y: needs "command" (a stdio server) or "url" (an HTTP server)');
      const badName = await s.nova.request({ type: "set_mcp_servers", servers: { "a b": everythingStdio } });
      expect(badName.error).toContain('server name "a b"');
    },
    SLOW,
  );

  test(
    "${VAR} in a host-given spec is expanded from nova's environment",
    async () => {
      const dir = tempDir("nova-mcp-var-");
      mkdirSync(join(dir, "sub"));
      writeFileSync(join(dir, "sub", "n.txt"), "var ok");
      const s = await open({ env: { MCP_TEST_DIR: dir } });
      const spec = filesystem("${MCP_TEST_DIR}/sub");
      await s.nova.request({ type: "set_mcp_servers", servers: { fs: spec } });
      const ok = await statusOf(s.nova, "fs", "connected");
      expect(ok.tools).toContain("mcp__fs__read_text_file");
      s.server.enqueue(s.f.toolCalls([{ id: "v1", name: "mcp__fs__read_text_file", args: { path: join(dir, "sub", "n.txt") } }]), s.f.text("ok"));
      const frames = await promptAndSettle(s.nova, "read");
      expect(toolEnd(frames).result.content[0].text).toBe("var ok");
    },
    SLOW,
  );

  test(
    "--no-mcp: every server is listed as disabled and none is started",
    async () => {
      const s = await open({ args: ["--no-session", "--no-mcp"], extra: { mcpServers: { everything: everythingStdio } } });
      await s.nova.request({ type: "set_mcp_servers", servers: { host: everythingStdio } });
      const servers = (await s.nova.request({ type: "get_mcp_servers" })).data.servers;
      expect(servers).toEqual([
        { name: "everything", source: "config", status: "disabled", tools: [], error: "--no-mcp" },
        { name: "host", source: "rpc", status: "disabled", tools: [], error: "--no-mcp" },
      ]);
      expect((await s.nova.request({ type: "get_state" })).data.dumpTools.some((t: any) => t.name.startsWith("mcp__"))).toBe(false);
      expect(s.nova.stderr).not.toContain("[mcp");
    },
    SLOW,
  );
});
