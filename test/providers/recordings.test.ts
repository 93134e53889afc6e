/**
 * Streams recorded from the real APIs (test/providers/recordings/<format>/,
 * sources in sources.json), replayed through the real nova process with
 * random chunk cuts, forced inside multi-byte characters and JSON escapes.
 * Each assistant message must say what the recording says (read by
 * recording-reader.ts, not by nova's decoders), and each request after a
 * tool-call turn must carry back what that API requires.
 */
import { describe, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { Scripted } from "../support/provider-server.ts";
import { startProviderServer } from "../support/provider-server.ts";
import { type Frame, startNova } from "../support/nova.ts";
import { fixturesFor, promptAndSettle } from "../support/scenario.ts";
import { type Expected, type WireFormat, expectedFrom, expectedHttpError } from "./recording-reader.ts";

const DIR = join(import.meta.dir, "recordings");
const SEED = Number(process.env.RECORDINGS_SEED ?? Date.now() % 1_000_000);
const sources: Record<string, Record<string, string>> = JSON.parse(readFileSync(join(DIR, "sources.json"), "utf8"));
const formats: WireFormat[] = ["openai-chat", "openai-responses", "anthropic", "google", "ollama"];

interface Recording {
  name: string;
  /** one per HTTP response, in order */
  responses: { file: string; bytes: Uint8Array; status: number; expected: Expected }[];
}

function recordings(format: WireFormat): Recording[] {
  const byName = new Map<string, Recording>();
  for (const file of readdirSync(join(DIR, format)).sort()) {
    const match = /^(.+?)(?:\.(\d+))?\.(sse|ndjson|http\.json)$/.exec(file);
    if (!match) throw new Error(`${format}/${file}: not a recording (.sse, .ndjson, .http.json)`);
    const name = match[1]!;
    const kind = match[3]!;
    const text = readFileSync(join(DIR, format, file), "utf8");
    let response: Recording["responses"][number];
    if (kind === "http.json") {
      const { status, body } = JSON.parse(text);
      response = { file, bytes: new TextEncoder().encode(JSON.stringify(body)), status, expected: expectedHttpError(status, body) };
    } else {
      response = { file, bytes: new TextEncoder().encode(text), status: 200, expected: expectedFrom(format, text) };
    }
    const recording = byName.get(name) ?? { name, responses: [] };
    recording.responses.push(response);
    byName.set(name, recording);
  }
  return [...byName.values()];
}

/** mulberry32: a small seeded generator, so a failing cut can be replayed with RECORDINGS_SEED */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Cuts at random places, plus inside the first multi-byte characters and right after the first backslashes. */
export function cuts(bytes: Uint8Array, next: () => number): Uint8Array[] {
  const at = new Set<number>();
  let inside = 0;
  let escapes = 0;
  for (let i = 1; i < bytes.length && (inside < 12 || escapes < 12); i++) {
    if ((bytes[i]! & 0xc0) === 0x80 && inside < 12) {
      at.add(i);
      inside++;
    }
    if (bytes[i - 1] === 0x5c && escapes < 12) {
      at.add(i);
      escapes++;
    }
  }
  const count = Math.min(200, Math.max(4, Math.floor(bytes.length / 300)));
  for (let n = 0; n < count; n++) at.add(1 + Math.floor(next() * (bytes.length - 1)));
  const points = [...at].filter((p) => p > 0 && p < bytes.length).sort((a, b) => a - b);
  const chunks: Uint8Array[] = [];
  let from = 0;
  for (const p of points) {
    chunks.push(bytes.subarray(from, p));
    from = p;
  }
  chunks.push(bytes.subarray(from));
  return chunks;
}

function scripted(response: Recording["responses"][number], next: () => number): Scripted {
  const type = response.status >= 400 ? "application/json" : response.file.endsWith(".ndjson") ? "application/x-ndjson" : "text/event-stream";
  return { status: response.status, headers: { "content-type": type }, chunks: cuts(response.bytes, next) };
}

const text = (m: Frame, type: "text" | "thinking") =>
  m.content
    .filter((c: Frame) => c.type === type)
    .map((c: Frame) => c[type])
    .join("");

function checkMessage(message: Frame, expected: Expected, where: string) {
  expect(message.stopReason, where).toBe(expected.stop);
  if (expected.error !== undefined) {
    expect(message.errorMessage, where).toBe(expected.error);
    return;
  }
  expect(text(message, "text"), where).toBe(expected.text);
  expect(text(message, "thinking"), where).toBe(expected.thinking);
  const calls = message.content.filter((c: Frame) => c.type === "toolCall");
  expect(
    calls.map((c: Frame) => ({ name: c.name, args: c.arguments })),
    where,
  ).toEqual(expected.calls.map((c) => ({ name: c.name, args: c.args })));
  expected.calls.forEach((call, i) => {
    if (call.id) expect(calls[i].id, where).toBe(call.id);
    if (call.signature) expect(calls[i].thoughtSignature, where).toBe(call.signature);
  });
  if (expected.usage) {
    const u = message.usage;
    expect({ input: u.input, cacheRead: u.cacheRead, cacheWrite: u.cacheWrite, total: u.totalTokens }, where).toEqual(expected.usage);
  }
}

/** What the request after a tool-call turn must carry back, per API. */
function checkSentBack(format: WireFormat, body: any, expected: Expected, message: Frame, where: string) {
  const ids = message.content.filter((c: Frame) => c.type === "toolCall").map((c: Frame) => c.id as string);
  switch (format) {
    case "openai-chat": {
      const turn = body.messages.findLast((m: any) => m.role === "assistant");
      expect(
        turn.tool_calls.map((c: any) => c.id),
        where,
      ).toEqual(ids);
      expect(
        turn.tool_calls.map((c: any) => JSON.parse(c.function.arguments)),
        where,
      ).toEqual(expected.calls.map((c) => c.args));
      // DeepSeek's thinking mode answers 400 without it; other servers get nothing they did not ask for
      if (/deepseek/.test(expected.model)) expect(turn.reasoning_content, where).toBe(expected.thinking);
      else expect(turn, where).not.toHaveProperty("reasoning_content");
      expect(
        body.messages.filter((m: any) => m.role === "tool").map((m: any) => m.tool_call_id),
        where,
      ).toEqual(expect.arrayContaining(ids));
      break;
    }
    case "openai-responses": {
      for (const item of expected.replay) expect(body.input, where).toContainEqual(item);
      for (const call of expected.calls) {
        const [callId, itemId] = call.id!.split("|");
        expect(body.input, where).toContainEqual(expect.objectContaining({ type: "function_call", call_id: callId, id: itemId, name: call.name }));
        expect(body.input, where).toContainEqual(expect.objectContaining({ type: "function_call_output", call_id: callId }));
      }
      break;
    }
    case "anthropic": {
      const turn = body.messages.findLast((m: any) => m.role === "assistant");
      for (const block of expected.replay) expect(turn.content, where).toContainEqual(block);
      for (const call of expected.calls) expect(turn.content, where).toContainEqual({ type: "tool_use", id: call.id, name: call.name, input: call.args });
      const results = body.messages
        .at(-1)
        .content.filter((b: any) => b.type === "tool_result")
        .map((b: any) => b.tool_use_id);
      expect(results, where).toEqual(expected.calls.map((c) => c.id));
      break;
    }
    case "google": {
      const turn = body.contents.findLast((c: any) => c.role === "model");
      expect(
        turn.parts.filter((p: any) => p.functionCall),
        where,
      ).toEqual(expected.calls.map((call) => ({ functionCall: { name: call.name, args: call.args }, ...(call.signature ? { thoughtSignature: call.signature } : {}) })));
      break;
    }
    case "ollama": {
      const turn = body.messages.findLast((m: any) => m.role === "assistant");
      expect(turn.tool_calls, where).toEqual(expected.calls.map((c) => ({ function: { name: c.name, arguments: c.args } })));
      expect(body.messages.at(-1).role, where).toBe("tool");
      break;
    }
  }
}

/** What a finished turn carries on the next request: reasoning items and signed thinking, Gemini's text signature; no chat reasoning. */
function checkKept(format: WireFormat, body: any, expected: Expected, where: string) {
  switch (format) {
    case "openai-chat": {
      const turn = body.messages.findLast((m: any) => m.role === "assistant");
      expect(turn.content, where).toBe(expected.text);
      // reasoning goes back only on turns with tool calls (DeepSeek rejects it elsewhere)
      expect(turn, where).not.toHaveProperty("reasoning_content");
      break;
    }
    case "openai-responses":
      for (const item of expected.replay) expect(body.input, where).toContainEqual(item);
      break;
    case "anthropic": {
      const turn = body.messages.findLast((m: any) => m.role === "assistant");
      for (const block of expected.replay) expect(turn.content, where).toContainEqual(block);
      break;
    }
    case "google": {
      const turn = body.contents.findLast((c: any) => c.role === "model");
      expect(turn.parts, where).toContainEqual({ text: expected.text, ...(expected.textSignature ? { thoughtSignature: expected.textSignature } : {}) });
      break;
    }
    case "ollama":
      break;
  }
}

test("every recording names its source", () => {
  for (const format of formats) {
    const names = recordings(format).map((r) => r.name);
    expect(names.length).toBeGreaterThanOrEqual(4);
    expect(Object.keys(sources[format] ?? {}).sort()).toEqual(names.sort());
  }
});

for (const format of formats) {
  describe(`${format} recordings (seed ${SEED})`, () => {
    for (const recording of recordings(format)) {
      test(recording.name, async () => {
        const next = random(SEED + recording.name.length * 7919);
        const server = await startProviderServer();
        const model = recording.responses.find((r) => r.expected.model)?.expected.model ?? "model";
        const base = format === "ollama" ? server.url : `${server.url}/v1`;
        const config = {
          defaultModel: `rec/${model}`,
          providers: { rec: { api: format, baseUrl: base, apiKey: "sk-recorded-test-key", discover: false, models: [{ id: model, reasoning: true, input: ["text"] }] } },
          retry: { enabled: false },
          compaction: { enabled: false },
          stream: { idleTimeoutMs: 5000 },
        };
        for (const response of recording.responses) server.enqueue(scripted(response, next));
        const last = recording.responses.at(-1)!.expected;
        // a recording that ends on a tool call gets a plain answer, so the run ends and the request after it is seen
        if (last.stop === "toolUse") server.enqueue(fixturesFor[format].text("done"));
        const nova = await startNova({ args: ["--no-session"], config });
        try {
          const frames = await promptAndSettle(nova, "replay");
          const end = frames.find((f) => f.type === "agent_end");
          const assistants = end!.messages.filter((m: Frame) => m.role === "assistant");
          recording.responses.forEach((response, i) => {
            const where = `${format}/${response.file} (seed ${SEED})`;
            checkMessage(assistants[i], response.expected, where);
            if (response.expected.stop === "toolUse") checkSentBack(format, server.requests[i + 1]!.body, response.expected, assistants[i], where);
          });
          // a turn that ended the run still goes back with the next prompt, with what the API needs kept
          if (last.stop === "stop" && (last.replay.length > 0 || last.textSignature || last.thinking)) {
            server.enqueue(fixturesFor[format].text("done"));
            await promptAndSettle(nova, "again");
            checkKept(format, server.requests.at(-1)!.body, last, `${format}/${recording.name} follow-up (seed ${SEED})`);
          }
        } finally {
          await nova.stop();
          await server.close();
        }
      });
    }
  });
}
