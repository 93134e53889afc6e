/** Shared test plumbing: byte streams from chunks, and the split points that stress a parser. */
import type { Model, Provider, ProviderEvent, ProviderRequest } from "../../src/providers/types.ts";

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

export async function collect<T>(iterable: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of iterable) out.push(item);
  return out;
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
