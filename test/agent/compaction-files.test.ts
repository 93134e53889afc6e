/** The files a compaction lists in its details, as Pi's compaction does. */
import { expect, test } from "bun:test";
import { fileLists } from "../../src/agent/compaction.ts";
import { assistant, toolCall } from "../session/fixtures.ts";

test("read files and changed files from the summarised tool calls, added to the previous compaction's", () => {
  const messages = [
    assistant([toolCall("c1", "read", { path: "a.ts" }), toolCall("c2", "read", { path: "b.ts" })]),
    assistant([toolCall("c3", "edit", { path: "b.ts", oldText: "x", newText: "y" }), toolCall("c4", "write", { path: "c.ts", content: "" })]),
    assistant([toolCall("c5", "bash", { command: "ls" }), toolCall("c6", "read", { offset: 3 })]),
  ];
  expect(fileLists(messages, undefined)).toEqual({ readFiles: ["a.ts"], modifiedFiles: ["b.ts", "c.ts"] });
  expect(fileLists(messages, { readFiles: ["z.ts", "c.ts"], modifiedFiles: ["old.ts"] })).toEqual({ readFiles: ["a.ts", "z.ts"], modifiedFiles: ["b.ts", "c.ts", "old.ts"] });
  // a hand-edited or foreign details value is read for what it holds
  expect(fileLists([], { readFiles: "not a list", modifiedFiles: [1, "d.ts"] })).toEqual({ readFiles: [], modifiedFiles: ["d.ts"] });
});
