import { describe, expect, test } from "bun:test";
import { parseOptions } from "../../src/tools/options.ts";
import { sedRunsOrWrites } from "../../src/tools/command-rules.ts";

const rm = { flags: "dfiIrRv", long: ["force", "recursive", "dir", "verbose", "interactive="] };
const cp = { flags: "afrRv", withValue: "tS", long: ["target-directory=", "recursive", "suffix="] };

describe("parseOptions", () => {
  test("GNU long options: exact, unambiguous prefix, =value and separate value", () => {
    expect([...parseOptions(["--r", "x"], rm).options.keys()]).toEqual(["recursive"]);
    expect(parseOptions(["--target-dir=out", "a"], cp).options.get("target-directory")).toEqual(["out"]);
    expect(parseOptions(["--target-directory", "out", "a"], cp)).toMatchObject({ operands: ["a"] });
  });

  test("an ambiguous prefix counts as every option it could mean", () => {
    expect([...parseOptions(["--", "x"], rm).options.keys()]).toEqual([]);
    expect([...parseOptions(["--i", "x"], { long: ["interactive", "ignore"] }).options.keys()]).toEqual(["interactive", "ignore"]);
  });

  test("bundled short options, a value in the cluster or the next word, -- ends options, - is an operand", () => {
    expect([...parseOptions(["-vfr", "x"], rm).options.keys()]).toEqual(["v", "f", "r"]);
    expect(parseOptions(["-atout", "a"], cp).options.get("t")).toEqual(["out"]);
    expect(parseOptions(["-t", "out", "a"], cp).operands).toEqual(["a"]);
    expect(parseOptions(["--", "-rf", "-"], rm)).toMatchObject({ operands: ["-rf", "-"] });
    expect(parseOptions(["-"], rm).operands).toEqual(["-"]);
  });

  test("options after operands count (GNU permutation) unless the tool stops at the first operand", () => {
    expect(parseOptions(["x", "-r"], rm).options.has("r")).toBe(true);
    expect(parseOptions(["rm", "-rf", "x"], { flags: "n", stopAtOperand: true })).toMatchObject({ firstOperand: 0, operands: ["rm", "-rf", "x"] });
  });
});

describe("sedRunsOrWrites", () => {
  test("finds e, w and s///e|w but not the letters inside patterns, replacements or text", () => {
    for (const script of ["e ls", "1e ls", "$!w out", "/x/W out", "s/a/b/e", "s|a|b|gw out", "1{e ls\n}"]) expect(sedRunsOrWrites(script)).toBe(true);
    for (const script of ["s/we/ew/g", "/where/d", "1p", "y/ew/we/", "a\\ewe", "s/x/y/; p"]) expect(sedRunsOrWrites(script)).toBe(false);
  });
});
