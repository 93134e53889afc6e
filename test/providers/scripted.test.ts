/**
 * The `scripted` provider through the real process (rpc mode, from source): a
 * host-written script with every step kind streams through the same assembly,
 * events, retries and tool loop as a real provider, and answers the same way
 * at every replay.
 */
import { afterEach, describe, expect, test, setDefaultTimeout } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { startNova, tempDir, type Frame, type Nova } from "../support/nova.ts";
import { promptAndSettle } from "../support/scenario.ts";

// several spawns per test: the preload's 30 s, stated here too so a busy machine's load cannot cut it to bun's 5 s
setDefaultTimeout(30_000);

const SCRIPT = String.raw`
- match: "^all steps$"
  reply:
    - thinking: "pondering the notes"
    - text: "Reading the notes now."
    - usage: {input: 11, output: 7, cacheRead: 2}
    - tool: read
      arguments: {path: "{{ prompt | match /^(all)/ }}-notes.txt"}
    - delayMs: 40
    - text: 'The notes say: {{ result.read | match /^\s*1\t(.*)$/m }} (from {{ args.read.path }})'
- match: "^flaky$"
  reply:
    - error: {status: 429, message: "slow down"}
    - text: "recovered"
- match: "^broken$"
  reply:
    - text: "partial "
    - error: {status: 400, message: "bad input"}
- match: "^run false$"
  reply:
    - tool: bash
      arguments: {command: "exit 3"}
- match: "exit code: 3"
  reply:
    - text: "the command failed with 3"
`;

let nova: Nova | undefined;
afterEach(async () => {
  await nova?.stop();
  nova = undefined;
});

async function start(script: string): Promise<{ nova: Nova; cwd: string }> {
  const home = tempDir("nova-home-");
  const cwd = tempDir("nova-cwd-");
  writeFileSync(join(home, "script.yml"), script);
  writeFileSync(join(cwd, "all-notes.txt"), "buy seeds\nwater plants\n");
  nova = await startNova({
    home,
    cwd,
    args: ["--no-session"],
    config: {
      defaultModel: "ci/replay",
      providers: { ci: { api: "scripted", script: "script.yml", models: [{ id: "replay" }] } },
      retry: { enabled: true, maxRetries: 2, baseDelayMs: 10, maxDelayMs: 50 },
    },
  });
  return { nova, cwd };
}

const updates = (frames: Frame[], kind: string) => frames.filter((f) => f.type === "message_update" && f.assistantMessageEvent.type === kind).map((f) => f.assistantMessageEvent);
const assistants = (frames: Frame[]) => frames.filter((f) => f.type === "message_end" && f.message.role === "assistant").map((f) => f.message);

describe("scripted provider", () => {
  test("text, thinking, usage, tool and delayMs steps stream like a real provider, placeholders filled from the tool results", async () => {
    const { nova } = await start(SCRIPT);
    const started = performance.now();
    const frames = await promptAndSettle(nova, "all steps");
    const [first, second] = assistants(frames);
    expect(first.content).toEqual([
      { type: "thinking", thinking: "pondering the notes" },
      { type: "text", text: "Reading the notes now." },
      { type: "toolCall", id: expect.any(String), name: "read", arguments: { path: "all-notes.txt" } },
    ]);
    expect(first.stopReason).toBe("toolUse");
    expect(first.usage).toMatchObject({ input: 11, output: 7, cacheRead: 2 });
    // streamed in deltas, word by word, and the tool call's arguments in pieces
    expect(
      updates(frames, "text_delta")
        .slice(0, 4)
        .map((e) => e.delta),
    ).toEqual(["Reading ", "the ", "notes ", "now."]);
    expect(updates(frames, "thinking_delta").length).toBe(3);
    expect(updates(frames, "toolcall_delta").length).toBe(2);
    const tool = frames.find((f) => f.type === "tool_execution_end");
    expect(tool).toMatchObject({ toolName: "read", isError: false });
    expect(second.content).toEqual([{ type: "text", text: "The notes say: buy seeds (from all-notes.txt)" }]);
    expect(second.stopReason).toBe("stop");
    // without a usage step the usage is an estimate, never zero
    expect(second.usage.input).toBeGreaterThan(0);
    expect(performance.now() - started).toBeGreaterThanOrEqual(40);
  });

  test("an error step is retried as the real error would be, and the retry goes on after it", async () => {
    const { nova } = await start(SCRIPT);
    const flaky = await promptAndSettle(nova, "flaky");
    expect(flaky.find((f) => f.type === "auto_retry_start")).toMatchObject({ attempt: 1, errorMessage: "slow down" });
    expect(flaky.find((f) => f.type === "auto_retry_end")).toMatchObject({ success: true, attempt: 1 });
    expect(assistants(flaky).at(-1)).toMatchObject({ stopReason: "stop", content: [{ type: "text", text: "recovered" }] });

    const broken = await promptAndSettle(nova, "broken");
    expect(broken.some((f) => f.type === "auto_retry_start")).toBe(false);
    expect(assistants(broken).at(-1)).toMatchObject({ stopReason: "error", errorMessage: "bad input", content: [{ type: "text", text: "partial " }] });
  });

  test("a rule can match a tool result: the reply that ends in a tool call hands over to it", async () => {
    const { nova } = await start(SCRIPT);
    const frames = await promptAndSettle(nova, "run false");
    expect(frames.find((f) => f.type === "tool_execution_end")).toMatchObject({ toolName: "bash", isError: true });
    expect(assistants(frames).at(-1)!.content).toEqual([{ type: "text", text: "the command failed with 3" }]);
  });

  test("no matching rule, or a broken script, is an error that says where", async () => {
    const { nova } = await start(SCRIPT);
    const none = assistants(await promptAndSettle(nova, "something else")).at(-1);
    expect(none).toMatchObject({ stopReason: "error", errorMessage: 'no rule of the script matches the last user message: "something else"' });
    await nova.stop();

    const bad = await start("- reply:\n    - text: ok\n    - tool: read\n      argument: {path: x}\n");
    const error = assistants(await promptAndSettle(bad.nova, "hi")).at(-1);
    expect(error.errorMessage).toMatch(/script\.yml: rules\[0\]\.reply\[1\]: unknown key "argument" \(expected tool, arguments\)$/);
    await bad.nova.stop();

    const template = await start("- reply: [{text: '{{ result | shout }}'}]\n");
    const failed = assistants(await promptAndSettle(template.nova, "hi")).at(-1);
    expect(failed.errorMessage).toMatch(/rules\[0\]\.reply\[0\]\.text: placeholder \{\{ result \| shout \}\}: unknown filter "shout"/);
  });

  test("the same prompts get the same answers at every replay, down to the tool call ids", async () => {
    const transcript = async () => {
      const { nova } = await start(SCRIPT);
      const frames = [...(await promptAndSettle(nova, "all steps")), ...(await promptAndSettle(nova, "run false"))];
      await nova.stop();
      return assistants(frames).map(({ timestamp, ...rest }) => rest);
    };
    const one = await transcript();
    expect(one.length).toBe(4);
    expect(await transcript()).toEqual(one);
  });
});

describe("scripted provider: prompt cache", () => {
  test("without a usage step, what the last request under the session's cache key sent is reported as cache reads, OpenAI-style", async () => {
    const long = "a line that makes the prompt long enough for the cache. ".repeat(120);
    const { nova } = await start(`- reply: [{text: "${long}"}]\n`);
    const first = assistants(await promptAndSettle(nova, "one"))[0]!;
    const second = assistants(await promptAndSettle(nova, "two"))[0]!;
    // the first request has nothing cached; the second begins with all of it
    expect(first.usage.cacheRead).toBe(0);
    expect(second.usage.cacheRead).toBeGreaterThanOrEqual(1024);
    expect(second.usage.cacheRead % 128).toBe(0);
    expect(second.usage.input).toBeGreaterThan(0);
    expect(second.usage.cacheRead + second.usage.input).toBeGreaterThan(first.usage.input + first.usage.cacheRead);
    expect(second.usage.cacheRead).toBeLessThanOrEqual(first.usage.input + first.usage.cacheRead);
  });
});
