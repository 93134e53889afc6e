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
      print: false, prompts: [], quiet: false, continue: false,
    });
    expect(parseArgs(["--no-mcp"]).noMcp).toBe(true);
    expect(parseArgs([]).mode).toBe("rpc");
    expect(parseArgs(["--provider", "p", "--model", "m", "--no-session"])).toMatchObject({ provider: "p", model: "m", noSession: true });
    expect(parseArgs(["--version"]).action).toBe("version");
    expect(parseArgs(["--print-schema"]).action).toBe("print-schema");
  });

  test.each([
    [["--mode", "tui"], '--mode must be one of rpc, rpc-ui, acp, json, got "tui"'],
    [["--model"], "--model needs a value"],
    [["--bogus"], "unknown option: --bogus"],
    [["stray"], 'unexpected argument: stray (to run a prompt: nova -p "stray")'],
    [["-p", "x", "--mode", "rpc"], "-p/--print cannot be combined with --mode rpc"],
    [["--quiet"], "--quiet applies to -p/--print only"],
    [["-p", "x", "--permission-mode", "yolo"], '--permission-mode must be one of default, bypass, dontAsk, got "yolo"'],
    [["@file.md"], "@file arguments are not accepted in RPC mode: @file.md"],
    [["--no-session=1"], "--no-session takes no value"],
    [["--no-session", "--session-dir", "x"], "--no-session and --session-dir cannot be combined"],
  ])("%p is refused", (argv, message) => {
    expect(() => parseArgs(argv as string[])).toThrow(new UsageError(message as string));
  });
});

describe("one-shot flags", () => {
  test("-p joins the words after the options; -- ends the options", () => {
    expect(parseArgs(["-p", "what", "is", "this?", "--quiet"])).toMatchObject({ print: true, prompts: ["what", "is", "this?"], quiet: true });
    expect(parseArgs(["--print", "--", "-x", "--no-session"])).toMatchObject({ print: true, prompts: ["-x", "--no-session"], noSession: false });
  });

  test("--mode json takes several prompts, and --permission-mode its three values", () => {
    expect(parseArgs(["--mode", "json", "one", "two", "--permission-mode", "bypass"])).toMatchObject({ mode: "json", prompts: ["one", "two"], permissionMode: "bypass" });
    expect(parseArgs(["--mode=rpc", "--permission-mode=dontAsk"])).toMatchObject({ mode: "rpc", prompts: [], permissionMode: "dontAsk" });
  });
});
