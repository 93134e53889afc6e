import { describe, expect, test } from "bun:test";
import { parseArgs, UsageError } from "../../src/cli/args.ts";

describe("parseArgs", () => {
  test("every flag of the fixed surface", () => {
    expect(
      parseArgs([
        "--mode",
        "rpc-ui",
        "--config",
        "c.yml",
        "--model",
        "p/m",
        "--thinking",
        "high",
        "--cwd",
        "/w",
        "--session-dir",
        "/s",
        "--system-prompt",
        "S",
        "--append-system-prompt=A",
        "--message-snapshots",
      ]),
    ).toEqual({
      mode: "rpc-ui",
      config: "c.yml",
      model: "p/m",
      thinking: "high",
      cwd: "/w",
      sessionDir: "/s",
      systemPrompt: "S",
      appendSystemPrompt: ["A"],
      messageSnapshots: true,
      noSession: false,
      print: false,
      prompts: [],
      quiet: false,
      continue: false,
      noTools: false,
      noBuiltinTools: false,
      noContextFiles: false,
      noSkills: false,
      noMcp: false,
      piOnlyFlags: [],
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
    [["-p", "x", "--permission-mode", "yolo"], '--permission-mode must be one of default, acceptEdits, plan, bypass, dontAsk, got "yolo"'],
    [["@file.md"], "@file arguments are not accepted in RPC mode: @file.md"],
    [["--no-session=1"], "--no-session takes no value"],
    [["--no-session", "--session-dir", "x"], "--no-session and --session-dir cannot be combined"],
  ])("%p is refused", (argv, message) => {
    expect(() => parseArgs(argv as string[])).toThrow(new UsageError(message as string));
  });
});

describe("Pi's command line", () => {
  test("Pi-only flags are accepted, with their values, and remembered", () => {
    const args = parseArgs([
      "--mode",
      "rpc",
      "--no-themes",
      "--theme",
      "dark.json",
      "--use-theme=light",
      "-ne",
      "--no-extensions",
      "-e",
      "./ext.ts",
      "--extension",
      "x",
      "-np",
      "--no-prompt-templates",
      "--prompt-template",
      "p.md",
      "--offline",
      "--verbose",
      "-a",
      "--approve",
      "-na",
      "--no-approve",
      "--tui-mode",
      "regular",
    ]);
    expect(args.mode).toBe("rpc");
    expect(args.piOnlyFlags).toEqual([
      "--no-themes",
      "--theme",
      "--use-theme",
      "-ne",
      "--no-extensions",
      "-e",
      "--extension",
      "-np",
      "--no-prompt-templates",
      "--prompt-template",
      "--offline",
      "--verbose",
      "-a",
      "--approve",
      "-na",
      "--no-approve",
      "--tui-mode",
    ]);
  });

  test("the flags nova implements", () => {
    expect(
      parseArgs([
        "--session",
        "s.jsonl",
        "-n",
        "My work",
        "-t",
        "read,bash",
        "-xt",
        "mcp__*",
        "-nbt",
        "-nc",
        "-ns",
        "--no-mcp",
        "--api-key",
        "K",
        "--models",
        "a,b:high",
        "--permission-prompt",
        "ui",
        "--append-system-prompt",
        "one",
        "--append-system-prompt",
        "two",
      ]),
    ).toMatchObject({
      session: "s.jsonl",
      name: "My work",
      tools: ["read", "bash"],
      excludeTools: ["mcp__*"],
      noBuiltinTools: true,
      noContextFiles: true,
      noSkills: true,
      noMcp: true,
      apiKey: "K",
      models: ["a", "b:high"],
      permissionPrompt: "ui",
      appendSystemPrompt: ["one", "two"],
      piOnlyFlags: [],
    });
    expect(parseArgs(["-c", "-nt"])).toMatchObject({ continue: true, noTools: true });
    expect(parseArgs(["--fork", "abc", "--session-id", "my.id-1"])).toMatchObject({ fork: "abc", sessionId: "my.id-1" });
  });

  test.each([
    [["-r"], "-r opens Pi's interactive session picker, which nova does not have; use --continue for the newest session of this directory, or --session <path|id>"],
    [["--resume"], "--resume opens Pi's interactive session picker, which nova does not have; use --continue for the newest session of this directory, or --session <path|id>"],
    [["--permission-prompt", "ask"], '--permission-prompt must be one of request, ui, allow, deny, got "ask"'],
    [["--session-id", "-bad"], "--session-id must be letters, digits, '.', '_' or '-', starting and ending with a letter or digit, got \"-bad\""],
    [["--fork", "a", "--continue"], "--fork cannot be combined with --continue"],
    [["--session-id", "x", "--session", "y"], "--session-id cannot be combined with --session"],
    [["--session", "x", "--no-session"], "--session cannot be combined with --no-session"],
    [["--no-themes=1"], "--no-themes takes no value"],
    [["--theme"], "--theme needs a value"],
    [["--name", " "], "--name needs a non-empty value"],
    [["--mode", "acp", "-c"], "--continue does not apply to --mode acp (its client loads sessions with session/load)"],
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
