/** What a bash tool command sees about its session, under nova's names and Pi's (through the real process). */
import { expect, test } from "bun:test";
import { promptAndSettle, scenarios } from "../support/scenario.ts";
import { fixtures } from "../support/fixtures/index.ts";
import { tempDir } from "../support/nova.ts";

const setup = scenarios();
const f = fixtures.openaiChat;
const NAMES = [
  "AI_AGENT",
  "PI_CODING_AGENT",
  "NOVA_SESSION_ID",
  "NOVA_SESSION_FILE",
  "NOVA_PROVIDER",
  "NOVA_MODEL",
  "NOVA_THINKING_LEVEL",
  "PI_SESSION_ID",
  "PI_SESSION_FILE",
  "PI_PROVIDER",
  "PI_MODEL",
  "PI_REASONING_LEVEL",
];
const PRINT = NAMES.map((n) => `echo "${n}=\${${n}-unset}"`).join("; ");

async function seen(s: Awaited<ReturnType<typeof setup>>): Promise<Record<string, string>> {
  s.server.enqueue(f.toolCalls([{ id: "e1", name: "bash", args: { command: PRINT } }]), f.text("ok"));
  const frames = await promptAndSettle(s.nova, "print the environment");
  const text: string = frames.find((fr) => fr.type === "tool_execution_end")!.result.content[0].text;
  return Object.fromEntries(
    text
      .split("\n")
      .filter((l) => l.includes("="))
      .map((l) => [l.slice(0, l.indexOf("=")), l.slice(l.indexOf("=") + 1)]),
  );
}

test("bash commands see the session, the model and the thinking level, resolved per command", async () => {
  const s = await setup({ args: ["--session-dir", tempDir("nova-sessions-")], reasoning: true, env: { PI_SESSION_ID: "stale-parent" } });
  const state = (await s.nova.request({ type: "get_state" })).data;
  const first = await seen(s);
  expect(first).toEqual({
    AI_AGENT: "nova",
    PI_CODING_AGENT: "true",
    NOVA_SESSION_ID: state.sessionId,
    NOVA_SESSION_FILE: state.sessionFile,
    NOVA_PROVIDER: "test",
    NOVA_MODEL: "m1",
    NOVA_THINKING_LEVEL: state.thinkingLevel,
    PI_SESSION_ID: state.sessionId,
    PI_SESSION_FILE: state.sessionFile,
    PI_PROVIDER: "test",
    PI_MODEL: "m1",
    PI_REASONING_LEVEL: state.thinkingLevel,
  });
  await s.nova.request({ type: "set_model", provider: "test", modelId: "m2" });
  const second = await seen(s);
  expect(second).toMatchObject({ NOVA_MODEL: "m2", PI_MODEL: "m2", NOVA_THINKING_LEVEL: "off", PI_REASONING_LEVEL: "off" });
});

test("without a session file the file variables are unset", async () => {
  const s = await setup({ env: { PI_SESSION_FILE: "/stale/parent.jsonl" } });
  const vars = await seen(s);
  expect(vars).toMatchObject({ NOVA_SESSION_FILE: "unset", PI_SESSION_FILE: "unset", AI_AGENT: "nova" });
});
