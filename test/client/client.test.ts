/**
 * nova-agent/client against the real process (from source, and the compiled
 * binary when built): typed requests matched by number ids, failures as
 * NovaError, the event iterator, promptAndWait, and the four handlers
 * answering nova's questions (host tool, host URI, dialog, permission).
 */
import { afterEach, describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { NovaError, type NovaClient, type StartOptions } from "../../src/client/index.ts";
import { startClient } from "../support/client.ts";
import { startProviderServer, type ProviderServer } from "../support/provider-server.ts";
import { testConfig } from "../support/scenario.ts";
import { fixtures } from "../support/fixtures/index.ts";
import { tempDir } from "../support/nova.ts";
import { requireBinary, targets } from "../support/targets.ts";
import { PROTOCOL_VERSION } from "../../src/core/protocol.ts";

const f = fixtures.openaiChat;
let open: { client: NovaClient; server: ProviderServer }[] = [];
afterEach(async () => {
  await Promise.all(open.map(async ({ client, server }) => (await client.kill(), await server.close())));
  open = [];
});

describe.each(targets)("nova-agent/client ($name)", ({ binary }) => {
  if (binary) test("the compiled executable exists", requireBinary);

  async function start(options: StartOptions = {}) {
    const server = await startProviderServer();
    const cwd = tempDir("nova-client-");
    const client = await startClient({ binaryPath: binary, args: ["--no-session"], cwd, config: testConfig(server.url), ...options });
    open.push({ client, server });
    return { client, server, cwd };
  }

  test("ready is read at start; request() resolves typed data and rejects a failure with NovaError", async () => {
    const { client } = await start();
    expect(client.ready.protocolVersion).toBe(PROTOCOL_VERSION);
    const state = await client.request({ type: "get_state" });
    expect(state.model?.id).toBe("m1");
    expect(state.isStreaming).toBe(false);
    const [models, levels] = await Promise.all([client.request({ type: "get_available_models" }), client.request({ type: "get_available_thinking_levels" })]);
    expect(models.models.map((m) => m.id)).toEqual(["m1", "m2"]);
    expect(levels.levels).toContain("off");
    const refused = client.request({ type: "set_model", provider: "nope", modelId: "x" });
    await expect(refused).rejects.toBeInstanceOf(NovaError);
    await expect(refused).rejects.toThrow("set_model: Model not found: nope/x");
    expect(await client.request({ type: "set_auto_retry", enabled: false })).toBeUndefined();
  });

  test("promptAndWait collects the run's events; a host tool call and its update are answered by the handler", async () => {
    const seen: unknown[] = [];
    const { client, server } = await start({
      hostTool: async (call, update) => {
        seen.push(call.arguments);
        update({ content: [{ type: "text", text: "working" }] });
        return { content: [{ type: "text", text: `echo: ${String(call.arguments.message)}` }] };
      },
    });
    const set = await client.request({
      type: "set_host_tools",
      tools: [{ name: "echo_host", description: "echo", parameters: { type: "object", properties: { message: { type: "string" } } } }],
    });
    expect(set.toolNames).toEqual(["echo_host"]);
    server.enqueue(f.toolCalls([{ id: "c1", name: "echo_host", args: { message: "hi" } }]), f.text("the host said echo: hi"));
    const events = await client.promptAndWait("go");
    expect(seen).toEqual([{ message: "hi" }]);
    expect(events.at(-1)?.type).toBe("agent_settled");
    const end = events.find((e) => e.type === "tool_execution_end");
    expect(end?.type === "tool_execution_end" && end.result.content).toEqual([{ type: "text", text: "echo: hi" }]);
    expect(events.some((e) => e.type === "tool_execution_update")).toBe(true);
    const text = await client.request({ type: "get_last_assistant_text" });
    expect(text.text).toBe("the host said echo: hi");
  });

  test("a permission request is answered by the handler; a denied command does not run", async () => {
    const asked: string[] = [];
    const { client, server, cwd } = await start({
      permission: (request) => {
        asked.push(request.command);
        return request.command.includes("keep");
      },
    });
    writeFileSync(join(cwd, "keep.txt"), "k");
    writeFileSync(join(cwd, "lose.txt"), "l");
    server.enqueue(
      f.toolCalls([{ id: "b1", name: "bash", args: { command: "rm -rf ./lose.txt" } }]),
      f.toolCalls([{ id: "b2", name: "bash", args: { command: "rm -rf ./keep.txt" } }]),
      f.text("done"),
    );
    const events = await client.promptAndWait("clean up");
    expect(asked).toEqual(["rm -rf ./lose.txt", "rm -rf ./keep.txt"]);
    const ends = events.flatMap((e) => (e.type === "tool_execution_end" ? [e.isError] : []));
    expect(ends).toEqual([true, false]);
    expect(await Bun.file(join(cwd, "lose.txt")).exists()).toBe(true);
    expect(await Bun.file(join(cwd, "keep.txt")).exists()).toBe(false);
  });

  test("host URIs and dialogs are answered by their handlers; the event iterator sees the questions too", async () => {
    const { client, server } = await start({
      args: ["--no-session", "--mode", "rpc-ui"],
      hostUri: (request) => ({ content: `row for ${request.url}`, contentType: "text/plain" }),
      ui: (request) => (request.method === "input" ? { value: "blue" } : { cancelled: true }),
    });
    expect((await client.request({ type: "set_host_uri_schemes", schemes: [{ scheme: "db", description: "rows" }] })).schemes).toEqual(["db"]);
    server.enqueue(
      f.toolCalls([{ id: "r1", name: "read", args: { path: "db://users/1" } }]),
      f.toolCalls([{ id: "a1", name: "ask", args: { question: "Which colour?" } }]),
      f.text("ok"),
    );
    const iterator = client.events();
    const events = await client.promptAndWait("look it up");
    const results = events.flatMap((e) => (e.type === "tool_execution_end" ? [JSON.stringify(e.result.content)] : []));
    expect(results[0]).toContain("row for db://users/1");
    expect(results[1]).toContain("blue");
    const questions: string[] = [];
    for await (const event of iterator) {
      if (event.type === "host_uri_request" || event.type === "extension_ui_request") questions.push(event.type);
      if (event.type === "agent_settled") break;
    }
    expect(questions).toEqual(["host_uri_request", "extension_ui_request"]);
  });

  test("close() lets nova exit 0, and a request after that rejects", async () => {
    const { client } = await start();
    expect(await client.close()).toBe(0);
    await expect(client.request({ type: "get_state" })).rejects.toThrow();
  });
});
