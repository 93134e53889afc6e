import { describe, expect, test } from "bun:test";
import { parseArgs, UsageError } from "../../src/cli/args.ts";

describe("parseArgs", () => {
  test("every flag of the fixed surface", () => {
    expect(
      parseArgs([
        "--mode", "rpc-ui", "--config", "c.yml", "--model", "p/m", "--thinking", "high", "--cwd", "/w",
        "--session-dir", "/s", "--system-prompt", "S", "--append-system-prompt=A", "--message-snapshots",
      ]),
    ).toEqual({
      mode: "rpc-ui", config: "c.yml", model: "p/m", thinking: "high", cwd: "/w", sessionDir: "/s",
      systemPrompt: "S", appendSystemPrompt: "A", messageSnapshots: true, noSession: false, noMcp: false,
    });
    expect(parseArgs(["--no-mcp"]).noMcp).toBe(true);
    expect(parseArgs([]).mode).toBe("rpc");
    expect(parseArgs(["--provider", "p", "--model", "m", "--no-session"])).toMatchObject({ provider: "p", model: "m", noSession: true });
    expect(parseArgs(["--version"]).action).toBe("version");
    expect(parseArgs(["--print-schema"]).action).toBe("print-schema");
  });

  test.each([
    [["--mode", "tui"], '--mode must be one of rpc, rpc-ui, acp, got "tui"'],
    [["--model"], "--model needs a value"],
    [["--bogus"], "unknown option: --bogus"],
    [["stray"], "unexpected argument: stray"],
    [["@file.md"], "@file arguments are not accepted in RPC mode: @file.md"],
    [["--no-session=1"], "--no-session takes no value"],
    [["--no-session", "--session-dir", "x"], "--no-session and --session-dir cannot be combined"],
  ])("%p is refused", (argv, message) => {
    expect(() => parseArgs(argv as string[])).toThrow(new UsageError(message as string));
  });
});
