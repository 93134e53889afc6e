import { describe, expect, test } from "bun:test";
import { type IgnoreLayer, isIgnored, parseIgnore } from "../../src/tools/ignore.ts";

const root = (text: string): IgnoreLayer[] => [{ strip: "", prepend: "", rules: parseIgnore(text) }];

describe("gitignore semantics", () => {
  const cases: [rules: string, path: string, isDir: boolean, ignored: boolean][] = [
    ["*.log", "a.log", false, true],
    ["*.log", "deep/down/a.log", false, true],
    ["*.log", "a.log.txt", false, false],
    ["build/", "build", true, true],
    ["build/", "build", false, false],
    ["build/", "src/build", true, true],
    ["/build", "build", true, true],
    ["/build", "src/build", true, false],
    ["doc/*.txt", "doc/a.txt", false, true],
    ["doc/*.txt", "doc/sub/a.txt", false, false],
    ["doc/*.txt", "x/doc/a.txt", false, false],
    ["**/foo", "foo", false, true],
    ["**/foo", "a/b/foo", false, true],
    ["a/**/b", "a/b", false, true],
    ["a/**/b", "a/x/y/b", false, true],
    ["a/**", "a/x/y", false, true],
    ["a/**", "a", true, false],
    ["*.log\n!keep.log", "keep.log", false, false],
    ["*.log\n!keep.log", "other.log", false, true],
    ["!keep.log\n*.log", "keep.log", false, true],
    ["# comment\n\n", "# comment", false, false],
    ["\\#hash", "#hash", false, true],
    ["\\!bang", "!bang", false, true],
    ["file?.txt", "file1.txt", false, true],
    ["file?.txt", "file10.txt", false, false],
    ["[abc].md", "b.md", false, true],
    ["[!abc].md", "b.md", false, false],
    ["[!abc].md", "d.md", false, true],
    ["trailing   ", "trailing", false, true],
    ["a.b", "axb", false, false],
    ["out\r\n", "out", false, true],
  ];
  for (const [rules, path, isDir, ignored] of cases) {
    test(`${JSON.stringify(rules)} on ${path}${isDir ? "/" : ""} → ${ignored ? "ignored" : "kept"}`, () => {
      expect(isIgnored(root(rules), path, isDir)).toBe(ignored);
    });
  }

  test("a deeper layer overrides a shallower one, and sees paths relative to its folder", () => {
    const layers: IgnoreLayer[] = [
      { strip: "", prepend: "", rules: parseIgnore("*.gen") },
      { strip: "pkg/", prepend: "", rules: parseIgnore("!keep.gen\n/local") },
    ];
    expect(isIgnored(layers, "pkg/keep.gen", false)).toBe(false);
    expect(isIgnored(layers, "pkg/other.gen", false)).toBe(true);
    expect(isIgnored(layers, "keep.gen", false)).toBe(true);
    expect(isIgnored(layers, "pkg/local", false)).toBe(true);
    expect(isIgnored(layers, "local", false)).toBe(false);
  });

  test("a layer above the walk root sees paths with the root's own prefix", () => {
    const layers: IgnoreLayer[] = [{ strip: "", prepend: "sub/", rules: parseIgnore("/sub/gen\nsub/*.tmp") }];
    expect(isIgnored(layers, "gen", true)).toBe(true);
    expect(isIgnored(layers, "x.tmp", false)).toBe(true);
    expect(isIgnored(layers, "nested/x.tmp", false)).toBe(false);
  });

  test("an unusable pattern is skipped, the rest still apply", () => {
    expect(isIgnored(root("[z-a]\n*.o"), "x.o", false)).toBe(true);
  });
});
