import { expect, test } from "bun:test";
import { qualifiedName, uniqueNames } from "../../src/mcp/names.ts";
import { mcpVerdict } from "../../src/mcp/tool.ts";
import { promptArguments } from "../../src/mcp/prompts.ts";
import { toBlock } from "../../src/mcp/results.ts";

test("names are sanitised to what providers accept, cut with a hash when too long, and made unique", () => {
  expect(qualifiedName("my.server", "read file/now")).toBe("mcp__my_server__read_file_now");
  const long = qualifiedName("s", "x".repeat(80));
  const [cut, other] = uniqueNames([long, qualifiedName("s", `${"x".repeat(80)}y`)]);
  expect(cut!.length).toBe(64);
  expect(cut).toMatch(/^mcp__s__x+_[0-9a-f]{8}$/);
  expect(other).not.toBe(cut);
  expect(uniqueNames(["mcp__a__b", "mcp__a__b", "mcp__a__b"])).toEqual(["mcp__a__b", "mcp__a__b_2", "mcp__a__b_3"]);
  expect(uniqueNames(["mcp__a__b"], ["mcp__a__b"])).toEqual(["mcp__a__b_2"]);
});

test("permission verdicts: deny wins, then allow (server__tool, server__*, or the full name), then readOnlyHint", () => {
  const rules = { allow: ["fs__read*", "mcp__web__fetch"], deny: ["fs__*delete*"] };
  expect(mcpVerdict("fs", "read_file", false, rules)).toEqual({ verdict: "allow", rule: "fs__read*" });
  expect(mcpVerdict("fs", "delete_file", true, rules)).toEqual({ verdict: "deny", rule: "fs__*delete*" });
  expect(mcpVerdict("web", "fetch", false, rules).verdict).toBe("allow");
  expect(mcpVerdict("fs", "write_file", false, rules)).toEqual({ verdict: "ask" });
  expect(mcpVerdict("fs", "write_file", true, rules)).toEqual({ verdict: "allow" });
});

test("prompt arguments: name=value, positional in declared order, one argument takes the whole text", () => {
  const two = { name: "p", arguments: [{ name: "city" }, { name: "state" }] };
  expect(promptArguments(two, 'state="New York" city=Albany')).toEqual({ city: "Albany", state: "New York" });
  expect(promptArguments(two, "Paris France")).toEqual({ city: "Paris", state: "France" });
  expect(promptArguments({ name: "q", arguments: [{ name: "text" }] }, "all of this")).toEqual({ text: "all of this" });
});

test("content blocks: unsupported images, audio, resources and links become text", () => {
  expect(toBlock({ type: "image", data: "AAAA", mimeType: "image/bmp" })).toEqual({ type: "text", text: expect.stringContaining("image/bmp") });
  expect(toBlock({ type: "resource", resource: { uri: "file:///a.txt", mimeType: "text/plain", text: "hello" } })).toEqual({
    type: "text",
    text: "[resource file:///a.txt (text/plain)]\nhello",
  });
  expect(toBlock({ type: "resource", resource: { uri: "x://b", blob: "AAAA" } }).type).toBe("text");
  expect(toBlock({ type: "resource_link", uri: "x://c", name: "c" })).toEqual({ type: "text", text: '[resource link x://c "c"]' });
  expect(toBlock({ type: "audio", data: "AAAA", mimeType: "audio/wav" })).toEqual({ type: "text", text: "[audio of type audio/wav, 3 bytes, not shown]" });
});
