import { expect, test } from "bun:test";
import { type AgentMessage, type AssistantMessage, emptyUsage, type StopReason } from "../../src/core/messages.ts";
import { estimateContextTokens, estimateMessageTokens, estimateTokens, IMAGE_TOKENS } from "../../src/agent/tokens.ts";

const image = { type: "image" as const, data: "aGVsbG8=", mimeType: "image/png" };

function assistant(content: AssistantMessage["content"], usage?: Partial<AssistantMessage["usage"]>, stopReason: StopReason = "stop"): AssistantMessage {
  return {
    role: "assistant",
    content,
    api: "test",
    provider: "test",
    model: "m",
    usage: { ...emptyUsage(), ...usage },
    stopReason,
    timestamp: 0,
  };
}

function user(text: string): AgentMessage {
  return { role: "user", content: text, timestamp: 0 };
}

test("estimateTokens is characters over four, rounded up", () => {
  expect(estimateTokens("")).toBe(0);
  expect(estimateTokens("abcd")).toBe(1);
  expect(estimateTokens("abcde")).toBe(2);
  expect(estimateTokens("x".repeat(400))).toBe(100);
});

test("user messages: string content, text blocks and images", () => {
  expect(estimateMessageTokens(user("x".repeat(41)))).toBe(11);
  const blocks: AgentMessage = {
    role: "user",
    content: [{ type: "text", text: "x".repeat(10) }, image, { type: "text", text: "y".repeat(10) }],
    timestamp: 0,
  };
  expect(estimateMessageTokens(blocks)).toBe(5 + IMAGE_TOKENS);
});

test("assistant messages count text, thinking and tool call arguments", () => {
  const args = { path: "src/a.ts", limit: 20 };
  const m = assistant([
    { type: "thinking", thinking: "t".repeat(8) },
    { type: "text", text: "a".repeat(8) },
    { type: "toolCall", id: "c1", name: "read", arguments: args },
  ]);
  const chars = 8 + 8 + "read".length + JSON.stringify(args).length;
  expect(estimateMessageTokens(m)).toBe(Math.ceil(chars / 4));
});

test("tool results count text and a fixed amount per image", () => {
  const m: AgentMessage = {
    role: "toolResult",
    toolCallId: "c1",
    toolName: "view_image",
    content: [{ type: "text", text: "z".repeat(12) }, image, image],
    isError: false,
    timestamp: 0,
  };
  expect(estimateMessageTokens(m)).toBe(3 + 2 * IMAGE_TOKENS);
});

test("bash executions and summaries", () => {
  const bash: AgentMessage = {
    role: "bashExecution",
    command: "ls -la",
    output: "o".repeat(20),
    exitCode: 0,
    cancelled: false,
    truncated: false,
    timestamp: 0,
  };
  expect(estimateMessageTokens(bash)).toBe(2 + 5);
  const compaction: AgentMessage = { role: "compactionSummary", summary: "s".repeat(9), tokensBefore: 1000, timestamp: 0 };
  expect(estimateMessageTokens(compaction)).toBe(3);
  const branch: AgentMessage = { role: "branchSummary", summary: "s".repeat(16), fromId: "abc", timestamp: 0 };
  expect(estimateMessageTokens(branch)).toBe(4);
});

test("without usage every message is estimated", () => {
  const messages = [user("x".repeat(40)), assistant([{ type: "text", text: "y".repeat(80) }])];
  expect(estimateContextTokens(messages)).toBe(10 + 20);
});

test("the last answered assistant message anchors the count with its real usage", () => {
  const messages = [
    user("x".repeat(4000)),
    assistant([{ type: "text", text: "first" }], { input: 10, output: 5 }),
    user("x".repeat(4000)),
    assistant([{ type: "text", text: "second" }], { input: 500, cacheRead: 300, output: 40 }),
    user("q".repeat(40)),
    assistant([{ type: "text", text: "z".repeat(400) }], {}, "aborted"),
  ];
  expect(estimateContextTokens(messages)).toBe(500 + 300 + 40 + 10 + 100);
});

test("lastUsage stands in for the anchor message's usage", () => {
  const messages = [user("x".repeat(4000)), assistant([{ type: "text", text: "a" }]), user("q".repeat(8))];
  expect(estimateContextTokens(messages, { input: 1000, cacheRead: 2000, output: 30 })).toBe(3030 + 2);
});

test("an anchor reporting zero usage falls back to estimating everything", () => {
  const messages = [user("x".repeat(40)), assistant([{ type: "text", text: "y".repeat(40) }])];
  expect(estimateContextTokens(messages)).toBe(20);
});

test("freshly cached input counts as context", () => {
  const messages = [assistant([{ type: "text", text: "a" }], { input: 3, cacheWrite: 2000, output: 7 })];
  expect(estimateContextTokens(messages)).toBe(2010);
});
