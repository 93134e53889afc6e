/** permissions.prompt through the real process: each channel a host can answer, and how it is chosen. */
import { describe, expect, test } from "bun:test";
import { existsSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { scenarios, type Scenario } from "../support/scenario.ts";
import { fixtures } from "../support/fixtures/index.ts";
import { spawnNova } from "../support/nova.ts";

const setup = scenarios();
const f = fixtures.openaiChat;
const COMMAND = "rm -rf build && echo removed";

/** The model asks for a flagged command; resolves with the frames index the turn started at. */
async function flagged(s: Scenario): Promise<number> {
  mkdirSync(join(s.cwd, "build"));
  const from = s.nova.frames.length;
  s.server.enqueue(f.toolCalls([{ id: "p1", name: "bash", args: { command: COMMAND } }]), f.text("finished"));
  await s.nova.request({ type: "prompt", message: "clean up" });
  return from;
}

async function outcome(s: Scenario, from: number) {
  await s.nova.waitFor((fr) => fr.type === "agent_settled", from);
  const frames = s.nova.frames.slice(from);
  return {
    end: frames.find((fr) => fr.type === "tool_execution_end")!,
    asked: frames.filter((fr) => fr.type === "permission_request" || (fr.type === "extension_ui_request" && fr.method === "confirm")),
    ran: !existsSync(join(s.cwd, "build")),
  };
}

describe("ui: an extension_ui_request confirm", () => {
  test.each([
    [true, true],
    [false, false],
  ])("confirmed:%p → runs: %p", async (confirmed, runs) => {
    const s = await setup({ args: ["--no-session", "--permission-prompt", "ui"] });
    const from = await flagged(s);
    const ask = await s.nova.waitFor((fr) => fr.type === "extension_ui_request" && fr.method === "confirm", from);
    expect(ask.title).toContain("bash");
    expect(ask.message).toContain(COMMAND);
    expect(s.nova.frames.slice(from).some((fr) => fr.type === "permission_request")).toBe(false);
    s.nova.send({ type: "extension_ui_response", id: ask.id, confirmed });
    const result = await outcome(s, from);
    expect(result.ran).toBe(runs);
    expect(result.end.isError).toBe(!runs);
    if (runs) expect(result.end.result.content[0].text).toContain("removed");
  });

  test("a cancelled dialog does not run the command", async () => {
    const s = await setup({ args: ["--no-session", "--permission-prompt", "ui"] });
    const from = await flagged(s);
    const ask = await s.nova.waitFor((fr) => fr.type === "extension_ui_request" && fr.method === "confirm", from);
    s.nova.send({ type: "extension_ui_response", id: ask.id, cancelled: true });
    expect((await outcome(s, from)).ran).toBe(false);
  });

  test("a Pi-only flag on the launch line makes ui the default", async () => {
    const s = await setup({ args: ["--no-session", "--no-themes"] });
    const from = await flagged(s);
    const ask = await s.nova.waitFor((fr) => fr.type === "extension_ui_request" && fr.method === "confirm", from);
    s.nova.send({ type: "extension_ui_response", id: ask.id, confirmed: true });
    expect((await outcome(s, from)).ran).toBe(true);
  });
});

describe("unattended and the order of settings", () => {
  test.each([
    ["--permission-prompt allow", { args: ["--no-session", "--permission-prompt", "allow"] }, true],
    ["--permission-prompt deny", { args: ["--no-session", "--permission-prompt", "deny"] }, false],
    ["NOVA_PERMISSION_PROMPT=allow", { env: { NOVA_PERMISSION_PROMPT: "allow" } }, true],
    ["permissions.prompt: deny in the config", { extra: { permissions: { prompt: "deny" } } }, false],
    ["the flag wins over the environment", { args: ["--no-session", "--permission-prompt", "allow"], env: { NOVA_PERMISSION_PROMPT: "deny" } }, true],
    ["the environment wins over the config", { env: { NOVA_PERMISSION_PROMPT: "allow" }, extra: { permissions: { prompt: "deny" } } }, true],
    ["a setting wins over the Pi-flag default", { args: ["--no-session", "--no-themes"], extra: { permissions: { prompt: "allow" } } }, true],
  ])("%s", async (_, options, runs) => {
    const s = await setup(options);
    const from = await flagged(s);
    const result = await outcome(s, from);
    expect(result.asked).toEqual([]);
    expect(result.ran).toBe(runs);
    if (!runs) expect(result.end.result.content[0].text).toMatch(/denied/i);
  });

  test("request (the default) still sends permission_request", async () => {
    const s = await setup({ args: ["--no-session", "--permission-prompt", "request"] });
    const from = await flagged(s);
    const ask = await s.nova.waitFor((fr) => fr.type === "permission_request", from);
    await s.nova.request({ type: "permission_response", requestId: ask.requestId, approved: true });
    expect((await outcome(s, from)).ran).toBe(true);
  });
});

describe("bad values name the field and the value", () => {
  test.each([
    [{ args: ["--permission-prompt", "maybe"] }, '--permission-prompt must be one of request, ui, allow, deny, got "maybe"'],
    [{ env: { NOVA_PERMISSION_PROMPT: "always" } }, 'NOVA_PERMISSION_PROMPT must be one of request, ui, allow, deny, got "always"'],
    [{ config: { permissions: { prompt: "sometimes" } } }, 'permissions.prompt must be one of "request", "ui", "allow", "deny", got "sometimes"'],
  ])("%p", async (options, message) => {
    const nova = spawnNova(options);
    expect(await nova.exited).toBe(2);
    expect(nova.stderr).toContain(message);
  });
});
