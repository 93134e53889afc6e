import { describe, expect, test } from "bun:test";
import { replacementDiff } from "../../src/tools/edit-diff.ts";

function diffOf(old: string, find: string, replace: string): string {
  const start = old.indexOf(find);
  return replacementDiff("f", old, [{ start, end: start + find.length, text: replace }]).diff;
}

describe("replacementDiff", () => {
  test("a change inside a line shows that line replaced with context", () => {
    expect(diffOf("a\nb\nc\n", "b", "B")).toBe("--- a/f\n+++ b/f\n@@ -1,3 +1,3 @@\n a\n-b\n+B\n c");
  });

  test("an insertion at the end of the file", () => {
    expect(diffOf("a\nb\n", "b\n", "b\nc\n")).toBe("--- a/f\n+++ b/f\n@@ -1,2 +1,3 @@\n a\n b\n+c");
  });

  test("a deletion of whole lines", () => {
    expect(diffOf("1\n2\n3\n4\n", "2\n3\n", "")).toBe("--- a/f\n+++ b/f\n@@ -1,4 +1,2 @@\n 1\n-2\n-3\n 4");
  });

  test("changes on the same line merge into one block", () => {
    const old = "x = a + b\n";
    const r = replacementDiff("f", old, [
      { start: 4, end: 5, text: "A" },
      { start: 8, end: 9, text: "B" },
    ]);
    expect(r.diff).toBe("--- a/f\n+++ b/f\n@@ -1,1 +1,1 @@\n-x = a + b\n+x = A + B");
    expect(r.firstChangedLine).toBe(1);
  });

  test("the first changed line is counted in the new file", () => {
    const old = Array.from({ length: 20 }, (_, i) => `l${i + 1}`).join("\n");
    const start = old.indexOf("l10");
    const r = replacementDiff("f", old, [{ start, end: start + 3, text: "ten" }]);
    expect(r.firstChangedLine).toBe(10);
    expect(r.diff.split("\n")[2]).toBe("@@ -7,7 +7,7 @@");
  });
});
