import { describe, expect, test } from "bun:test";
import { parseCommandLine } from "../../src/tools/shell-words.ts";

function words(line: string): string[][] {
  const r = parseCommandLine(line);
  if (!r.ok) throw new Error(r.error);
  return r.commands.map((c) => c.words);
}

describe("parseCommandLine", () => {
  test("quotes and escapes are removed", () => {
    expect(words(`echo "a b" 'c d' e\\ f "q\\"x" 'it'\\''s'`)).toEqual([["echo", "a b", "c d", "e f", 'q"x', "it's"]]);
  });

  test("ANSI-C quotes are decoded", () => {
    expect(words(`printf $'\\x72\\155\\t\\u00e9\\n'`)).toEqual([["printf", "rm\t\u00e9\n"]]);
  });

  test("every separator starts a new command", () => {
    expect(words("a; b && c || d | e & f\ng |& h")).toEqual([["a"], ["b"], ["c"], ["d"], ["e"], ["f"], ["g"], ["h"]]);
  });

  test("subshells and groups split commands", () => {
    expect(words("(a; b) && { c; }")).toEqual([["a"], ["b"], ["{", "c"], ["}"]]);
  });

  test("substitutions are parsed as commands of their own, inner first", () => {
    expect(words('echo "$(a 1)" `b 2` <(c 3) ${x:-$(d 4)}')).toEqual([
      ["a", "1"],
      ["b", "2"],
      ["c", "3"],
      ["d", "4"],
      ["echo", "$(a 1)", "`b 2`", "<(c 3)", "${x:-$(d 4)}"],
    ]);
  });

  test("expansions are marked dynamic", () => {
    const r = parseCommandLine('rm "$x" -{a,b} plain');
    expect(r.ok && r.commands[0]!.dynamic).toEqual([false, true, true, false]);
  });

  test("quoting and unquoted globs are marked per word", () => {
    const r = parseCommandLine("/bin/r[m] 'a' b\\c \"*\" *.o");
    expect(r.ok && r.commands[0]!.quoted).toEqual([false, true, true, true, false]);
    expect(r.ok && r.commands[0]!.glob).toEqual([true, false, false, false, true]);
  });

  test("constructs the check cannot follow are reported as features", () => {
    const features = (line: string) => {
      const r = parseCommandLine(line);
      return r.ok ? r.features : r.error;
    };
    expect(features("f() { ls; }")).toEqual(["function"]);
    expect(features("function f { ls; }")).toEqual(["function"]);
    expect(features("coproc cat")).toEqual(["coproc"]);
    expect(features("((1<<true))\nrm -rf x")).toEqual(["arithmetic"]);
    expect(words("((1<<true))\nrm -rf x")).toEqual([["rm", "-rf", "x"]]);
    expect(features("echo $((x))")).toEqual(["arithmetic"]);
    expect(features("echo $((1 + 2))")).toEqual([]);
    expect(words("echo $((echo hi); rm x)")).toEqual([
      ["echo", "hi"],
      ["rm", "x"],
      ["echo", "$((echo hi); rm x)"],
    ]);
    expect(features("echo ${x@P}")).toEqual(["transformation"]);
    expect(features("echo ${x:-y} 'f() {'")).toEqual([]);
  });

  test("redirections are separated from words", () => {
    const r = parseCommandLine("cmd a>out 2>&1 &>>log <in");
    expect(r.ok && r.commands[0]).toEqual({
      words: ["cmd", "a"],
      dynamic: [false, false],
      quoted: [false, false],
      glob: [false, false],
      redirects: [
        { op: ">", target: "out", dynamic: false },
        { op: "2>&", target: "1", dynamic: false },
        { op: "&>>", target: "log", dynamic: false },
        { op: "<", target: "in", dynamic: false },
      ],
    });
  });

  test("here-documents: bodies skipped, unquoted ones scanned for substitutions", () => {
    expect(words("cat <<EOF\nhello $(a)\nEOF\nb")).toEqual([["cat"], ["a"], ["b"]]);
    expect(words("cat <<'EOF'\n$(a)\nEOF")).toEqual([["cat"]]);
    expect(words("cat <<-EOF\n\t$(a)\n\tEOF")).toEqual([["cat"], ["a"]]);
  });

  test("comments and line continuations", () => {
    expect(words("a # b; c\nd \\\n e")).toEqual([["a"], ["d", "e"]]);
  });

  test("unbalanced input is an error", () => {
    for (const bad of [`echo "x`, "echo 'x", "echo $(x", "echo `x", "echo $'x", "cat <<EOF\nno end", "echo >", "x \\"]) {
      const r = parseCommandLine(bad);
      expect(r.ok).toBe(false);
    }
  });
});
