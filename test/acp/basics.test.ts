/** initialize, new session, prompts with text and images, models: nova --mode acp through the SDK's ClientSideConnection. */
import { afterEach, expect, test } from "bun:test";
import * as schema from "../../node_modules/@agentclientprotocol/sdk/dist/schema/zod.gen.js";
import { fixtures } from "../support/fixtures/index.ts";
import { f, PNG, startAcp, type AcpNova } from "./client.ts";

let n: AcpNova | undefined;
afterEach(async () => {
  await n?.close();
  n = undefined;
});

test("initialize negotiates version 1 and declares load, images and embedded context", async () => {
  n = await startAcp();
  const init = await n.initialize();
  expect(init.protocolVersion).toBe(1);
  expect(init.agentCapabilities).toMatchObject({
    loadSession: true,
    promptCapabilities: { image: true, audio: false, embeddedContext: true },
    sessionCapabilities: { list: {} },
  });
  expect(init.agentInfo?.name).toBe("nova");
  expect(init.authMethods?.map((m) => m.id)).toEqual(expect.arrayContaining(["anthropic", "openai", "test"]));
  expect(await n.conn.authenticate({ methodId: "test" })).toEqual({});
  await expect(n.conn.authenticate({ methodId: "anthropic" })).rejects.toMatchObject({ code: -32000, message: expect.stringContaining("ANTHROPIC_API_KEY") });
  await expect(n.conn.authenticate({ methodId: "nope" })).rejects.toMatchObject({ code: -32602 });
});

test("a prompt with text and an image streams chunks and answers end_turn with usage", async () => {
  n = await startAcp({ reasoning: true });
  await n.initialize();
  const { sessionId, configOptions } = await n.conn.newSession({ cwd: n.cwd, mcpServers: [] });
  expect(sessionId).toMatch(/^[0-9a-f-]{36}$/);
  expect(configOptions?.find((o) => o.id === "model")).toMatchObject({ currentValue: "test/m1", category: "model" });
  n.server.enqueue(f.thinking("Let me look.", "A one-pixel image."));
  const answer = await n.conn.prompt({
    sessionId,
    prompt: [
      { type: "text", text: "What is in " },
      { type: "resource_link", uri: `file://${n.cwd}/pic.png`, name: "pic.png" },
      { type: "image", data: PNG, mimeType: "image/png" },
      { type: "resource", resource: { uri: `file://${n.cwd}/notes.txt`, text: "selected lines", mimeType: "text/plain" } },
    ],
  });
  expect(answer.stopReason).toBe("end_turn");
  expect(answer.usage).toMatchObject({ inputTokens: 10, outputTokens: 5, totalTokens: 15 });
  expect(n.client.text("agent_message_chunk")).toBe("A one-pixel image.");
  expect(n.client.text("agent_thought_chunk")).toBe("Let me look.");
  expect(n.client.kinds()).toContain("usage_update");
  expect(n.client.updates.every((u) => u.sessionId === sessionId)).toBe(true);
  const user = n.server.requests[0]!.body.messages.find((m: any) => m.role === "user");
  const sent = JSON.stringify(user.content);
  expect(sent).toContain(`What is in @${n.cwd}/pic.png`);
  expect(sent).toContain(`<context uri=\\"file://${n.cwd}/notes.txt\\">\\nselected lines\\n</context>`);
  expect(user.content.some((c: any) => c.type === "image_url" && c.image_url.url === `data:image/png;base64,${PNG}`)).toBe(true);
});

test("set_config_option and set_model switch the model; bad values are invalid params", async () => {
  n = await startAcp();
  await n.initialize();
  const { sessionId } = await n.conn.newSession({ cwd: n.cwd, mcpServers: [] });
  const changed = await n.conn.setSessionConfigOption({ sessionId, configId: "model", value: "test/m2" });
  expect(changed.configOptions.find((o) => o.id === "model")).toMatchObject({ currentValue: "test/m2" });
  expect(await n.conn.extMethod("session/set_model", { sessionId, modelId: "test/m1" })).toEqual({});
  await n.client.waitForUpdate((u) => u.update.sessionUpdate === "config_option_update" && JSON.stringify(u.update).includes('"currentValue":"test/m1"'));
  await expect(n.conn.setSessionConfigOption({ sessionId, configId: "model", value: "test/zzz" })).rejects.toMatchObject({
    code: -32602,
    message: expect.stringContaining("test/zzz"),
  });
  await expect(n.conn.setSessionConfigOption({ sessionId, configId: "colour", value: "red" })).rejects.toMatchObject({ code: -32602 });
  n.server.enqueue(f.text("ok"));
  await n.conn.prompt({ sessionId, prompt: [{ type: "text", text: "hi" }] });
  expect(n.server.requests[0]!.body.model).toBe("m1");
});

test("unknown sessions, relative cwds, audio and a second concurrent prompt are refused with codes", async () => {
  n = await startAcp();
  await n.initialize();
  await expect(n.conn.prompt({ sessionId: "nope", prompt: [] })).rejects.toMatchObject({ code: -32002 });
  await expect(n.conn.newSession({ cwd: "relative/dir", mcpServers: [] })).rejects.toMatchObject({ code: -32602, message: expect.stringContaining("cwd") });
  const { sessionId } = await n.conn.newSession({ cwd: n.cwd, mcpServers: [] });
  await expect(n.conn.prompt({ sessionId, prompt: [{ type: "audio", data: "AAAA", mimeType: "audio/wav" }] })).rejects.toMatchObject({
    code: -32602,
    message: expect.stringContaining("audio"),
  });
  n.server.enqueue(f.text("slow", { end: "stall", keep: 3 }));
  const first = n.conn.prompt({ sessionId, prompt: [{ type: "text", text: "one" }] });
  await n.client.waitForUpdate((u) => u.update.sessionUpdate === "agent_message_chunk");
  await expect(n.conn.prompt({ sessionId, prompt: [{ type: "text", text: "two" }] })).rejects.toMatchObject({ code: -32600 });
  await n.conn.cancel({ sessionId });
  expect((await first).stopReason).toBe("cancelled");
});

test("stop reasons: a length stop is max_tokens, a content filter is refusal, a failed request is an error", async () => {
  n = await startAcp();
  await n.initialize();
  const { sessionId } = await n.conn.newSession({ cwd: n.cwd, mcpServers: [] });
  const ask = () => n!.conn.prompt({ sessionId, prompt: [{ type: "text", text: "go" }] });
  n.server.enqueue(f.text("cut sho", { stop: "length" }));
  expect((await ask()).stopReason).toBe("max_tokens");
  const filtered = { id: "c", object: "chat.completion.chunk", choices: [{ index: 0, delta: { role: "assistant", content: "I" }, finish_reason: "content_filter" }] };
  n.server.enqueue({ chunks: [`data: ${JSON.stringify(filtered)}\n\n`, "data: [DONE]\n\n"] });
  expect((await ask()).stopReason).toBe("refusal");
  n.server.enqueue(fixtures.httpError(400, { error: { message: "context too fancy" } }));
  await expect(ask()).rejects.toMatchObject({ code: -32603, message: expect.stringContaining("context too fancy") });
});

test("/compact is advertised as a command and summarizes the conversation through the model", async () => {
  n = await startAcp({ extra: { compaction: { enabled: true, reserveTokens: 1000, keepRecentTokens: 1 } } });
  await n.initialize();
  const { sessionId } = await n.conn.newSession({ cwd: n.cwd, mcpServers: [] });
  const advertised = await n.client.waitForUpdate((u) => u.update.sessionUpdate === "available_commands_update");
  expect(JSON.stringify(advertised.update)).toContain('"name":"compact"');
  const say = (text: string) => n!.conn.prompt({ sessionId, prompt: [{ type: "text", text }] });
  expect((await say("/compact")).stopReason).toBe("end_turn");
  expect(n.client.text("agent_message_chunk")).toContain("Nothing was compacted");
  expect(n.server.requests).toHaveLength(0);
  n.server.enqueue(f.text("first answer"), f.text("second answer"), f.text("SUMMARY OF WORK"), f.text("after"));
  await say("first");
  await say("second");
  expect((await say("/compact focus on tests")).stopReason).toBe("end_turn");
  expect(n.client.text("agent_message_chunk")).toContain("Compacted the conversation");
  expect(JSON.stringify(n.server.requests[2]!.body)).toContain("focus on tests");
  await say("next");
  expect(JSON.stringify(n.server.requests[3]!.body.messages)).toContain("SUMMARY OF WORK");
});

test("every answer fits the ACP schema (the SDK's own zod schemas)", async () => {
  n = await startAcp();
  schema.zInitializeResponse.parse(await n.initialize());
  const created = schema.zNewSessionResponse.parse(await n.conn.newSession({ cwd: n.cwd, mcpServers: [] }));
  schema.zSetSessionConfigOptionResponse.parse(await n.conn.setSessionConfigOption({ sessionId: created.sessionId, configId: "thought_level", value: "off" }));
  n.server.enqueue(f.text("fits"));
  schema.zPromptResponse.parse(await n.conn.prompt({ sessionId: created.sessionId, prompt: [{ type: "text", text: "check" }] }));
  const listed = schema.zListSessionsResponse.parse(await n.conn.listSessions({}));
  expect(listed.sessions.map((s) => s.sessionId)).toEqual([created.sessionId]);
  schema.zLoadSessionResponse.parse(await n.conn.loadSession({ sessionId: created.sessionId, cwd: n.cwd, mcpServers: [] }));
  expect(n.stderr()).not.toContain("error");
});
