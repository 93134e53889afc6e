/**
 * What the host was told is done is on disk: nova is killed with SIGKILL the
 * moment the test reads `tool_execution_end` (or a `message_end`), and the
 * session file still holds that tool result (or message), every time.
 */
import { expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { startNova, tempDir, type Frame } from "../support/nova.ts";
import { startProviderServer } from "../support/provider-server.ts";
import { testConfig } from "../support/scenario.ts";
import { fixtures } from "../support/fixtures/index.ts";

const f = fixtures.openaiChat;
function sessionEntries(home: string): Frame[] {
  const files = readdirSync(home, { recursive: true, encoding: "utf8" }).filter((p) => p.endsWith(".jsonl"));
  expect(files).toHaveLength(1);
  // a torn last line is what a kill may leave; every complete line parses
  return readFileSync(join(home, files[0]!), "utf8")
    .split("\n")
    .slice(1)
    .flatMap((l) => {
      try {
        return [JSON.parse(l)];
      } catch {
        return [];
      }
    });
}

/** Starts a run with one tool call, kills nova on the first frame that `killOn` matches, returns that frame and what the file holds. */
async function killedAt(killOn: (fr: Frame) => boolean, run: number) {
  const cwd = tempDir("nova-cwd-");
  // a server per run: a killed run leaves its unused answers behind
  const server = await startProviderServer();
  const nova = await startNova({ cwd, config: testConfig(server.url) });
  server.enqueue(f.toolCalls([{ id: `call_${run}`, name: "ls", args: { path: "." } }]), f.text(`done ${run}`));
  nova.send({ type: "prompt", message: `list ${run}`, id: "p" });
  const frame = await nova.waitFor(killOn);
  nova.proc.kill("SIGKILL");
  await nova.exited;
  await server.close();
  return { frame, entries: sessionEntries(nova.home) };
}

test("the tool result is in the session file before tool_execution_end goes out (30 kills)", async () => {
  for (let run = 0; run < 30; run++) {
    const { frame, entries } = await killedAt((fr) => fr.type === "tool_execution_end", run);
    const saved = entries.find((e) => e.type === "message" && e.message.role === "toolResult" && e.message.toolCallId === frame.toolCallId);
    expect(saved?.message.content).toEqual(frame.result.content);
  }
}, 180_000);

test("every message is in the session file before its message_end goes out (15 kills, user, assistant and tool result in turn)", async () => {
  const roles = ["user", "assistant", "toolResult"];
  for (let run = 0; run < 15; run++) {
    const role = roles[run % roles.length];
    const { frame, entries } = await killedAt((fr) => fr.type === "message_end" && fr.message.role === role, run);
    const saved = entries.filter((e) => e.type === "message" && e.message.role === role);
    expect(saved.map((e) => e.message.timestamp)).toContain(frame.message.timestamp);
  }
}, 120_000);
