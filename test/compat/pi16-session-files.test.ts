/**
 * Session files both agents open: Pi 1.6.0 itself (run under Bun) resumes a
 * file nova wrote, and nova resumes a file Pi 1.6.0 wrote, and each sends
 * the model the same conversation the other would. Both agents talk to the
 * same scripted provider (Pi through a models.json), and the test compares
 * the request bodies the provider received.
 */
import { afterEach, beforeAll, expect, test } from "bun:test";
import { copyFileSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { startNova, tempDir, type Nova } from "../support/nova.ts";
import { fixtures } from "../support/fixtures/index.ts";
import { startProviderServer, type ProviderServer } from "../support/provider-server.ts";
import { promptAndSettle, testConfig } from "../support/scenario.ts";
import { agentHome, loadPi16, PI_CLI, type Pi16 } from "./pi16.ts";

const f = fixtures.openaiChat;
let pi: Pi16;
beforeAll(async () => {
  pi = await loadPi16();
}, 180_000);

let server: ProviderServer;
let nova: Nova | undefined;
afterEach(async () => {
  await nova?.stop();
  nova = undefined;
  await server?.close();
});

/** One message as the model receives it (openai-chat wire): role, text, tool calls; system prompts aside. */
function conversation(body: any): { role: string; text: string; calls?: string[] }[] {
  return body.messages
    .filter((m: any) => m.role !== "system" && m.role !== "developer")
    .map((m: any) => {
      const text = typeof m.content === "string" ? m.content : (m.content ?? []).map((c: any) => c.text ?? "").join("");
      const calls = m.tool_calls?.map((c: any) => `${c.function.name} ${c.function.arguments}`);
      return calls ? { role: m.role, text, calls } : { role: m.role, text };
    });
}

/** Pi 1.6.0 resumes `file` in print mode and answers `message`; resolves with what it sent the provider. */
async function piResumes(file: string, message: string, cwd: string): Promise<any> {
  const home = agentHome("pi", server);
  const before = server.requests.length;
  server.enqueue(f.text("answered by pi"));
  const child = Bun.spawn([process.execPath, PI_CLI, "--provider", "test", "--model", "m1", "--session", file, "-p", message], {
    cwd,
    env: { PATH: process.env.PATH, ...home.env },
    stdout: "pipe",
    stderr: "pipe",
  });
  const [out, err, code] = [await new Response(child.stdout).text(), await new Response(child.stderr).text(), await child.exited];
  if (code !== 0) throw new Error(`pi exited ${code}: ${err}`);
  expect(out).toContain("answered by pi");
  expect(server.requests.length).toBe(before + 1);
  return server.requests.at(-1)!.body;
}

/** nova opens `file` with switch_session and answers `message`; resolves with what it sent the provider. */
async function novaResumes(file: string, message: string, cwd: string): Promise<any> {
  nova = await startNova({ cwd, config: testConfig(server.url, { extra: { stream: { idleTimeoutMs: 5000 } } }) });
  const switched = await nova.request({ type: "switch_session", sessionPath: file });
  expect(switched).toMatchObject({ success: true });
  server.enqueue(f.text("answered by nova"));
  const before = server.requests.length;
  await promptAndSettle(nova, message);
  expect(server.requests.length).toBe(before + 1);
  return server.requests.at(-1)!.body;
}

test("Pi 1.6.0 opens a nova file with a branch and a compaction without rewriting it, and sends the model what nova sends", async () => {
  server = await startProviderServer();
  const cwd = tempDir("nova-session-cwd-");
  nova = await startNova({ cwd, config: testConfig(server.url, { extra: { compaction: { enabled: true, reserveTokens: 200, keepRecentTokens: 10 } } }) });
  server.enqueue(f.text("answer one"), f.text("answer two"), f.text("answer two-b"), f.text("answer three"), f.text("NOVA SUMMARY"));
  await promptAndSettle(nova, "one");
  await promptAndSettle(nova, "two");
  const points = (await nova.request({ type: "get_fork_messages" })).data.messages;
  // the branch: back to before "two", then another way on
  await nova.request({ type: "fork", entryId: points.find((p: any) => p.text === "two").entryId });
  await promptAndSettle(nova, "two-b");
  await promptAndSettle(nova, "three");
  const compacted = await nova.request({ type: "compact" });
  expect(compacted).toMatchObject({ success: true, data: { summary: "NOVA SUMMARY" } });
  const file = (await nova.request({ type: "get_state" })).data.sessionFile as string;
  await nova.stop();
  nova = undefined;

  const written = readFileSync(file, "utf8");
  expect(JSON.parse(written.split("\n")[0]!)).toMatchObject({ type: "session", version: 3 });
  const forNova = join(tempDir("nova-copy-"), "copy.jsonl");
  copyFileSync(file, forNova);

  const piBody = await piResumes(file, "next", cwd);
  // Pi appended its own entries (its system prompt record, the new exchange) after nova's, untouched
  const after = readFileSync(file, "utf8");
  expect(after.startsWith(written)).toBe(true);
  expect(after.length).toBeGreaterThan(written.length);

  const novaBody = await novaResumes(forNova, "next", cwd);
  const seen = conversation(novaBody);
  expect(conversation(piBody)).toEqual(seen);
  // the active branch only, after the summary: the abandoned "two" and the summarised start are gone
  const texts = seen.map((m) => m.text);
  expect(texts[0]).toContain("NOVA SUMMARY");
  expect(texts).toContain("three");
  expect(texts).not.toContain("two");
  expect(texts).not.toContain("one");
  expect(texts.at(-1)).toBe("next");
}, 60_000);

test("nova opens a Pi 1.6.0 file (system messages, custom_message, context_edit, excluded bash) and sends the model what Pi sends", async () => {
  server = await startProviderServer();
  const cwd = tempDir("pi-session-cwd-");
  const file = join(tempDir("pi-session-"), "pi.jsonl");
  // Pi itself starts the file (with its system message entry), then Pi's own SessionManager adds the rest
  await piResumes(file, "first question", cwd);
  const manager = pi.SessionManager.open(file);
  const firstUser = manager.getEntries().find((e: any) => e.type === "message" && e.message.role === "user");
  manager.appendCustomMessageEntry("notes", "injected context from an extension", true, { source: "test" });
  manager.appendMessage({
    role: "bashExecution",
    command: "echo secret",
    output: "secret\n",
    exitCode: 0,
    cancelled: false,
    truncated: false,
    excludeFromContext: true,
    timestamp: Date.now(),
  });
  manager.appendMessage({ role: "bashExecution", command: "echo visible", output: "visible\n", exitCode: 0, cancelled: false, truncated: false, timestamp: Date.now() });
  manager.appendContextEdit(firstUser.id, { content: "first question, as edited" });
  const lines = readFileSync(file, "utf8")
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line));
  expect(lines.some((e) => e.type === "message" && e.message.role === "system")).toBe(true);
  expect(lines.map((e) => e.type)).toEqual(expect.arrayContaining(["custom_message", "context_edit"]));
  const forNova = join(tempDir("pi-copy-"), "copy.jsonl");
  copyFileSync(file, forNova);

  const piBody = await piResumes(file, "next", cwd);
  const novaBody = await novaResumes(forNova, "next", cwd);
  const seen = conversation(novaBody);
  expect(seen).toEqual(conversation(piBody));
  // no system entry ever became a user message, and nothing the edit or the exclusion removed reached the model
  expect(seen.every((m) => m.text !== "" || m.calls)).toBe(true);
  const all = JSON.stringify(seen);
  expect(all).not.toContain("secret");
  expect(all).toContain("visible");
  expect(all).toContain("injected context from an extension");
  expect(all).toContain("first question, as edited");
  expect(seen[0]).toEqual({ role: "user", text: "first question, as edited" });
  // nova sends one system prompt, its own
  expect(novaBody.messages.filter((m: any) => m.role === "system")).toHaveLength(1);
}, 60_000);
