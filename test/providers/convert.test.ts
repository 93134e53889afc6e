import { describe, expect, test } from "bun:test";
import type { AgentMessage, ToolResultMessage } from "../../src/core/messages.ts";
import { contextText, prepareMessages, toolResultText } from "../../src/providers/convert.ts";
import { PIXEL, assistant, testModel } from "./helpers.ts";

const model = testModel();
const result = (toolCallId: string, text = "ok"): ToolResultMessage => ({
  role: "toolResult",
  toolCallId,
  toolName: "read",
  content: [{ type: "text", text }],
  isError: false,
  timestamp: 3,
});
const call = (id: string) => ({ type: "toolCall" as const, id, name: "read", arguments: {} });

describe("prepareMessages", () => {
  test("drops errored and aborted turns with their tool results", () => {
    const messages: AgentMessage[] = [
      { role: "user", content: "go", timestamp: 1 },
      assistant(model, [call("bad")], "error"),
      result("bad"),
      assistant(model, [{ type: "text", text: "partial" }], "aborted"),
      assistant(model, [call("good")]),
      result("good"),
    ];
    const out = prepareMessages(messages, model);
    expect(out.map((m) => (m.role === "toolResult" ? `result:${m.toolCallId}` : m.role))).toEqual(["user", "assistant", "result:good"]);
  });

  test("a result whose call is not in the history is dropped", () => {
    const out = prepareMessages([{ role: "user", content: "hi", timestamp: 1 }, result("ghost")], model);
    expect(out.map((m) => m.role)).toEqual(["user"]);
  });

  test("a late or repeated result is dropped, leaving one result per call in place", () => {
    const out = prepareMessages(
      [assistant(model, [call("a"), call("b")]), result("a"), result("a", "again"), { role: "user", content: "steer", timestamp: 4 }, result("b")],
      model,
    );
    expect(out.map((m) => (m.role === "toolResult" ? `${m.toolCallId}:${m.isError}` : m.role))).toEqual(["assistant", "a:false", "b:true", "user"]);
  });

  test("a tool call left without a result gets an error result before the next turn", () => {
    const out = prepareMessages([assistant(model, [call("a"), call("b")]), result("a"), { role: "user", content: "next", timestamp: 4 }], model);
    expect(out.map((m) => m.role)).toEqual(["assistant", "toolResult", "toolResult", "user"]);
    expect(out[2]).toMatchObject({ toolCallId: "b", isError: true, content: [{ type: "text", text: "No result provided: the tool call was interrupted." }] });
  });

  test("a dangling call at the very end is closed too", () => {
    const out = prepareMessages([assistant(model, [call("z")])], model);
    expect(out.at(-1)).toMatchObject({ role: "toolResult", toolCallId: "z", isError: true });
  });

  test("user text becomes blocks; images become a note for text-only models", () => {
    const textOnly = testModel({ input: ["text"] });
    const messages: AgentMessage[] = [
      {
        role: "user",
        content: [
          { type: "text", text: "see" },
          { type: "image", mimeType: "image/png", data: PIXEL },
        ],
        timestamp: 1,
      },
    ];
    expect(prepareMessages(messages, textOnly)[0]).toMatchObject({
      content: [
        { type: "text", text: "see" },
        { type: "text", text: "(image omitted: this model does not accept images)" },
      ],
    });
    expect(prepareMessages([{ role: "user", content: "plain", timestamp: 1 }], model)[0]).toMatchObject({ content: [{ type: "text", text: "plain" }] });
  });

  test("bash runs and summaries become user text", () => {
    const out = prepareMessages(
      [
        { role: "bashExecution", command: "ls", output: "a", exitCode: 0, cancelled: false, truncated: false, timestamp: 1 },
        { role: "branchSummary", summary: "tried X", fromId: "e1", timestamp: 2 },
      ],
      model,
    );
    expect(out.map((m) => m.role)).toEqual(["user", "user"]);
  });
});

describe("contextText", () => {
  test("bash runs name the command, output, exit code, cancellation and truncation", () => {
    const bash = { role: "bashExecution" as const, command: "make", output: "boom", cancelled: false, truncated: false, timestamp: 1 };
    expect(contextText({ ...bash, exitCode: 0 })).toBe("Ran `make`\n```\nboom\n```");
    expect(contextText({ ...bash, exitCode: 2 })).toBe("Ran `make`\n```\nboom\n```\n\nCommand exited with code 2");
    expect(contextText({ ...bash, cancelled: true })).toBe("Ran `make`\n```\nboom\n```\n\n(command cancelled)");
    expect(contextText({ ...bash, exitCode: 0, truncated: true, fullOutputPath: "/tmp/o" })).toBe("Ran `make`\n```\nboom\n```\n\n[Output truncated. Full output: /tmp/o]");
  });

  test("a branch summary is wrapped so the model knows what it is", () => {
    expect(contextText({ role: "branchSummary", summary: "tried X", fromId: "e1", timestamp: 2 })).toBe(
      "The following is a summary of a branch that this conversation came back from:\n\n<summary>\ntried X\n</summary>",
    );
  });
});

describe("toolResultText", () => {
  test("never empty", () => {
    expect(toolResultText({ ...result("a"), content: [] })).toBe("(no output)");
    expect(toolResultText({ ...result("a"), content: [{ type: "image", mimeType: "image/png", data: PIXEL }] })).toBe("(see attached image)");
    expect(
      toolResultText({
        ...result("a"),
        content: [
          { type: "text", text: "a" },
          { type: "text", text: "b" },
        ],
      }),
    ).toBe("a\nb");
  });
});
