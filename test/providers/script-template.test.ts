import { describe, expect, test } from "bun:test";
import type { AgentMessage } from "../../src/core/messages.ts";
import { checkTemplate, fillArguments, fillTemplate } from "../../src/providers/script-template.ts";

const at = 1;
const messages: AgentMessage[] = [
  { role: "user", content: "list it", timestamp: at },
  {
    role: "assistant",
    content: [{ type: "toolCall", id: "c1", name: "ls", arguments: { path: "src/x" } }],
    api: "scripted",
    provider: "p",
    model: "m",
    stopReason: "toolUse",
    timestamp: at,
    usage: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, totalTokens: 0, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } },
  },
  { role: "toolResult", toolCallId: "c1", toolName: "ls", content: [{ type: "text", text: "a.ts\nREADME.md\n\nsub/\n" }], isError: false, timestamp: at },
];

describe("script placeholders", () => {
  test("sources, filters and alternatives", () => {
    expect(fillTemplate("{{ prompt }}", messages)).toBe("list it");
    expect(fillTemplate("{{ result.ls | count }} / {{ result | head 2 }}", messages)).toBe("3 / a.ts, README.md");
    expect(fillTemplate("{{ result.ls | match /^(readme\\S*)$/im }}", messages)).toBe("README.md");
    expect(fillTemplate("{{ result.ls | lines /[/]$/ }}", messages)).toBe("sub/");
    expect(fillTemplate('{{ result.read ?? result.ls | match /^zzz/ ?? "say \\"none\\"" }}', messages)).toBe('say "none"');
    expect(fillTemplate("{{ args.ls.path }} {{ args.ls.limit }}!", messages)).toBe("src/x !");
    expect(fillArguments({ path: "{{ args.ls.path }}", n: 3, list: ["{{ prompt }}"] }, messages)).toEqual({ path: "src/x", n: 3, list: ["list it"] });
  });

  test.each([
    ["{{ nothing }}", 'unknown source "nothing"'],
    ["{{ result | match abc }}", "match needs a /regex/"],
    ["{{ result | head }}", "head needs a number of lines"],
    ["{{ result | match /(/ }}", "bad regex /(/"],
    ['{{ "open }}', "unterminated string"],
    ["{{ prompt prompt }}", 'unexpected "prompt"'],
  ])("%p is refused: %p", (text, message) => {
    expect(() => checkTemplate(text)).toThrow(message);
  });
});
