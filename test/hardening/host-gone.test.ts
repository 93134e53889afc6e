/**
 * No question outlives the host's ability to answer: in a piped one-shot
 * (`printf '%s\n' '{"type":"prompt",…}' | nova --mode rpc`) stdin is closed
 * before the model asks anything, so a permission, host-tool, host-URI or UI
 * request fails at once with a result saying the host is gone; the run and
 * the queued messages finish, agent_end and agent_settled come, exit 0.
 */
import { afterEach, expect, test } from "bun:test";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { command, tempDir, type Frame } from "../support/nova.ts";
import { startProviderServer, type ProviderServer } from "../support/provider-server.ts";
import { testConfig } from "../support/scenario.ts";
import { fixtures } from "../support/fixtures/index.ts";

const f = fixtures.openaiChat;
let server: ProviderServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** Runs `printf '%s\n' <frames…> | nova --mode <mode>` through a real shell pipe; resolves once nova exits. */
async function oneShot(frames: object[], mode = "rpc") {
  const home = tempDir("nova-home-");
  const cwd = tempDir("nova-cwd-");
  const config = join(home, "config.json");
  writeFileSync(config, JSON.stringify(testConfig(server!.url)));
  const lines = frames.map((fr) => `'${JSON.stringify(fr).replaceAll("'", "'\\''")}'`).join(" ");
  const nova = command()
    .map((w) => `'${w}'`)
    .join(" ");
  const proc = Bun.spawn(["sh", "-c", `printf '%s\\n' ${lines} | ${nova} --mode ${mode} --no-session --config '${config}'`], {
    cwd,
    env: { PATH: process.env.PATH!, HOME: home, NOVA_HOME: home, TMPDIR: process.env.TMPDIR ?? "/tmp" },
    stdout: "pipe",
    stderr: "pipe",
  });
  const [out, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  const parsed: Frame[] = out
    .split("\n")
    .filter(Boolean)
    .map((l) => JSON.parse(l));
  return { frames: parsed, code, stderr, cwd };
}

function expectFinished(run: { frames: Frame[]; code: number }, runs: number) {
  const types = run.frames.map((fr) => fr.type);
  expect(run.code).toBe(0);
  expect(types.filter((t) => t === "agent_start")).toHaveLength(runs);
  expect(types.filter((t) => t === "agent_end")).toHaveLength(runs);
  expect(types.at(-1)).toBe("agent_settled");
  expect(types.filter((t) => t === "tool_execution_start").length).toBe(types.filter((t) => t === "tool_execution_end").length);
}

function goneResult(frames: Frame[]): string {
  const end = frames.find((fr) => fr.type === "tool_execution_end")!;
  expect(end.isError).toBe(true);
  const text: string = end.result.content[0].text;
  expect(text).toContain("the host is gone (it closed stdin)");
  expect(text).not.toMatch(/denied by the user/);
  return text;
}

test("a flagged bash command is not asked about: the tool result says the host is gone; the queued follow-up still runs", async () => {
  server = await startProviderServer();
  server.enqueue(f.toolCalls([{ id: "b1", name: "bash", args: { command: "rm -rf build" } }]), f.text("could not"), f.text("second answer"));
  const run = await oneShot([
    { type: "prompt", message: "clean up" },
    { type: "follow_up", message: "and then this" },
  ]);
  expectFinished(run, 1);
  expect(run.frames.filter((fr) => fr.type === "permission_request")).toEqual([]);
  expect(goneResult(run.frames)).toContain("this command needs the user's approval (rm is recursive or forced)");
  expect(server.requests).toHaveLength(3);
  expect(JSON.stringify(server.requests[2]!.body)).toContain("and then this");
});

test("the command did not run", async () => {
  server = await startProviderServer();
  const victim = join(tempDir("nova-victim-"), "victim");
  mkdirSync(victim);
  server.enqueue(f.toolCalls([{ id: "b1", name: "bash", args: { command: `rm -rf ${victim}` } }]), f.text("ok"));
  const run = await oneShot([{ type: "prompt", message: `rm -rf ${victim}` }]);
  expectFinished(run, 1);
  goneResult(run.frames);
  expect(existsSync(victim)).toBe(true);
});

test("a host tool call fails at once", async () => {
  server = await startProviderServer();
  server.enqueue(f.toolCalls([{ id: "h1", name: "echo_host", args: { message: "hi" } }]), f.text("ok"));
  const tool = { name: "echo_host", description: "echo", parameters: { type: "object", properties: { message: { type: "string" } } } };
  const run = await oneShot([
    { type: "set_host_tools", id: "t", tools: [tool] },
    { type: "prompt", message: "go" },
  ]);
  expectFinished(run, 1);
  expect(run.frames.filter((fr) => fr.type === "host_tool_call")).toEqual([]);
  expect(goneResult(run.frames)).toStartWith("echo_host was not run");
});

test("a host URI read fails at once", async () => {
  server = await startProviderServer();
  server.enqueue(f.toolCalls([{ id: "r1", name: "read", args: { path: "db://users" } }]), f.text("ok"));
  const run = await oneShot([
    { type: "set_host_uri_schemes", id: "s", schemes: [{ scheme: "db" }] },
    { type: "prompt", message: "go" },
  ]);
  expectFinished(run, 1);
  expect(run.frames.filter((fr) => fr.type === "host_uri_request")).toEqual([]);
  goneResult(run.frames);
});

test("a UI question (the ask tool in rpc-ui) fails at once instead of reading as unanswered", async () => {
  server = await startProviderServer();
  server.enqueue(f.toolCalls([{ id: "a1", name: "ask", args: { question: "which one?", options: ["a", "b"] } }]), f.text("ok"));
  const run = await oneShot([{ type: "prompt", message: "go" }], "rpc-ui");
  expectFinished(run, 1);
  expect(run.frames.filter((fr) => fr.type === "extension_ui_request" && fr.method === "select")).toEqual([]);
  expect(goneResult(run.frames)).not.toContain("did not answer");
});
