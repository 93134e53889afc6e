/** Shared test plumbing: byte streams from chunks, and the split points that stress a parser. */
import { type AgentMessage, type AssistantMessage, emptyUsage } from "../../src/core/messages.ts";
import type { Model, Provider, ProviderEvent, ProviderRequest } from "../../src/providers/types.ts";
import { MessageAssembler } from "../../src/agent/assemble.ts";

export const encode = (text: string) => new TextEncoder().encode(text);

export function streamOf(chunks: Uint8Array[]): ReadableStream<Uint8Array> {
  let i = 0;
  return new ReadableStream({
    pull(controller) {
      if (i < chunks.length) controller.enqueue(chunks[i++]);
      else controller.close();
    },
  });
}

/** Every way to cut `bytes` into two chunks, plus one byte per chunk. */
export function* splits(bytes: Uint8Array): Generator<Uint8Array[]> {
  for (let i = 0; i <= bytes.length; i++) yield [bytes.subarray(0, i), bytes.subarray(i)];
  yield Array.from(bytes, (_, i) => bytes.subarray(i, i + 1));
}

/** Everything an iterable yields; a decoder's batches (arrays) are flattened into their events. */
export async function collect<T>(iterable: AsyncIterable<T | T[]>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of iterable) {
    if (Array.isArray(item)) out.push(...item);
    else out.push(item);
  }
  return out;
}

/**
 * Folds provider events with the agent's own assembler, so tests assert on the
 * message the agent builds, not on chunking. The provider's block indices must
 * be 0..n-1, and `stop` is the reason the provider itself reported.
 */
export function assemble(events: ProviderEvent[]) {
  const indices = [...new Set(events.flatMap((e) => ("index" in e ? [e.index] : [])))].sort((a, b) => a - b);
  if (indices.some((index, i) => index !== i)) throw new Error(`block indices are not 0..n-1: ${indices.join(",")}`);
  const assembler = new MessageAssembler(testModel(), () => {});
  for (const event of events) assembler.push(event);
  const { message, error } = assembler.finish(false);
  const stop = events.findLast((e) => e.type === "stop");
  return { blocks: message.content, usage: message.usage, stop: stop?.type === "stop" ? stop.reason : undefined, error };
}

export function testModel(overrides: Partial<Model> = {}): Model {
  return {
    id: "test-model",
    name: "Test model",
    api: "openai-chat",
    provider: "test",
    baseUrl: "http://127.0.0.1:1",
    reasoning: false,
    input: ["text", "image"],
    contextWindow: 32768,
    maxTokens: 8192,
    cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
    ...overrides,
  };
}

export function testRequest(model: Model, overrides: Partial<ProviderRequest> = {}): ProviderRequest {
  return {
    model,
    auth: { apiKey: "sk-test-key" },
    systemPrompt: "You are a test.",
    messages: [{ role: "user", content: "hello", timestamp: 1 }],
    tools: [],
    thinkingLevel: "off",
    idleTimeoutMs: 5000,
    ...overrides,
  };
}

export function run(provider: Provider, request: ProviderRequest, signal = new AbortController().signal): Promise<ProviderEvent[]> {
  return collect(provider.stream(request, signal));
}

export function assistant(model: Model, content: AssistantMessage["content"], stopReason: AssistantMessage["stopReason"] = "toolUse"): AssistantMessage {
  return { role: "assistant", content, api: model.api, provider: model.provider, model: model.id, usage: emptyUsage(), stopReason, timestamp: 2 };
}

export const PIXEL = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=";
export const SHOT = "R0lGODlhAQABAAAAACw=";

/**
 * A history touching every conversion: a compaction summary, a user image, an
 * assistant turn with signed thinking, signed text and a tool call, a tool
 * result with an image, a user bash run, and a final user text.
 */
export function conversation(model: Model): AgentMessage[] {
  return [
    { role: "compactionSummary", summary: "We fixed the parser.", tokensBefore: 5000, timestamp: 0 },
    {
      role: "user",
      content: [
        { type: "text", text: "look at this" },
        { type: "image", mimeType: "image/png", data: PIXEL },
      ],
      timestamp: 1,
    },
    assistant(model, [
      { type: "thinking", thinking: "hmm", thinkingSignature: "sig-1" },
      { type: "text", text: "I'll read it.", textSignature: "msg_1" },
      { type: "toolCall", id: "call_1|fc_1", name: "read", arguments: { path: "a.gif" }, thoughtSignature: "ts-1" },
    ]),
    {
      role: "toolResult",
      toolCallId: "call_1|fc_1",
      toolName: "read",
      content: [
        { type: "text", text: "Read image a.gif" },
        { type: "image", mimeType: "image/gif", data: SHOT },
      ],
      isError: false,
      timestamp: 3,
    },
    { role: "bashExecution", command: "ls", output: "a.gif", exitCode: 0, cancelled: false, truncated: false, timestamp: 4 },
    { role: "user", content: "thanks", timestamp: 5 },
  ];
}

export const SUMMARY_TEXT = "The conversation history before this point was compacted into the following summary:\n\n<summary>\nWe fixed the parser.\n</summary>";
export const BASH_TEXT = "Ran `ls`\n```\na.gif\n```";

/** The bytes of a scripted response as a body stream, for feeding a decoder directly. */
export function bodyOf(source: string | { chunks: (string | Uint8Array)[] }): ReadableStream<Uint8Array> {
  const chunks = typeof source === "string" ? [source] : source.chunks;
  return streamOf(chunks.map((c) => (typeof c === "string" ? encode(c) : c)));
}
