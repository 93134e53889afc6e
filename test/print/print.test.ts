/**
 * `nova -p` through the compiled executable, as a person or a script runs it:
 * the answer alone on stdout (markdown on a terminal), progress on stderr,
 * piped stdin, exit codes 0/1/2/130 and flagged commands denied, not waited on.
 */
import { beforeAll, describe, expect, test, setDefaultTimeout } from "bun:test";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ROOT, tempDir } from "../support/nova.ts";
import { BINARY, requireBinary } from "../support/targets.ts";
import { runOnce, scriptedConfig, spawnOnce } from "./run.ts";

// several spawns per test: the preload's 30 s, stated here too so a busy machine's load cannot cut it to bun's 5 s
setDefaultTimeout(30_000);

const binary = BINARY;
const ESC = "\x1b[";

beforeAll(() => requireBinary());

function project(): string {
  const cwd = tempDir("nova-project-");
  writeFileSync(join(cwd, "README.md"), "# Parrot Tracker\n\nCounts parrots. TODO: count the blue ones\n");
  writeFileSync(join(cwd, "main.ts"), "export const parrots = 3;\n");
  return cwd;
}

describe("nova -p", () => {
  test("the demo answers from what the real tools found; stdout holds only the answer, stderr one line per tool call", async () => {
    const cwd = project();
    const run = await runOnce(["-p", "what is in this folder?", "--model", "scripted/demo"], { binary, cwd });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("- **2 entries**: main.ts, README.md");
    expect(run.stdout).toContain("- **README.md** begins with: Parrot Tracker");
    expect(run.stdout).toContain("- **Lines with TODO or FIXME**: 1");
    expect(run.stdout.startsWith("Here is what is in this folder:")).toBe(true);
    expect(run.stdout).not.toContain(ESC);
    expect(run.stdout).not.toContain("look around");
    const lines = run.stderr.trimEnd().split("\n");
    expect(lines).toEqual([
      "tool ls {} → ok",
      'tool bash {"command":"ls -pS | grep -v /"} → ok',
      'tool read {"path":"README.md","limit":40} → ok',
      'tool grep {"pattern":"TODO|FIXME","limit":20} → ok',
    ]);
  });

  test("--quiet leaves stderr empty; the words after -p are one prompt", async () => {
    const home = tempDir("nova-home-");
    scriptedConfig(home, '- match: "^two words$"\n  reply: [{text: "matched {{ prompt }}"}]\n');
    const run = await runOnce(["-p", "two", "words", "--quiet"], { binary, home });
    expect(run).toEqual({ code: 0, stdout: "matched two words\n", stderr: "" });
  });

  test("on a terminal the answer is rendered markdown and stderr shows a live status line", async () => {
    const cwd = project();
    const line = `${binary} -p 'what is in this folder?' --model scripted/demo`;
    const proc = Bun.spawn(["script", "-qec", line, "/dev/null"], {
      cwd,
      env: { PATH: process.env.PATH, NOVA_HOME: tempDir("nova-home-"), TERM: "xterm" },
      stdout: "pipe",
      stdin: "ignore",
    });
    const [out, code] = await Promise.all([new Response(proc.stdout).text(), proc.exited]);
    expect(code).toBe(0);
    // bold from Bun's markdown renderer instead of the ** markers
    expect(out).toContain(`${ESC}1m2 entries${ESC}22m`);
    expect(out).not.toContain("**2 entries**");
    // the status line names the model, the turn and the tool, redrawn in place
    expect(out).toMatch(/\r\x1b\[K. scripted\/demo · turn 1 · running ls \{\} · \d+\.\ds/);
    expect(out).not.toContain("tool ls {} → ok");
  });

  test("piped stdin comes before the prompt", async () => {
    const home = tempDir("nova-home-");
    scriptedConfig(
      home,
      '- match: "^diff --git[\\\\s\\\\S]*\\n\\nreview this$"\n  reply: [{text: "{{ prompt | head 1 }} / {{ prompt | count }} lines"}]\n- reply: [{text: "no match"}]\n',
    );
    const run = await runOnce(["-p", "review this"], { binary, home, stdin: "diff --git a/x b/x\n+one\n" });
    expect(run.code).toBe(0);
    expect(run.stdout).toBe("diff --git a/x b/x / 3 lines\n");
  });

  test("exit 1 when the run ends in an error, with the error on stderr and nothing on stdout", async () => {
    const home = tempDir("nova-home-");
    scriptedConfig(home, "- reply:\n    - error: {status: 400, message: 'the script says no'}\n");
    const run = await runOnce(["-p", "hello"], { binary, home });
    expect(run.code).toBe(1);
    expect(run.stdout).toBe("");
    expect(run.stderr).toContain("nova: error: the script says no");
  });

  test.each([
    [["-p"], "-p needs a prompt"],
    [["-p", "x", "--permission-mode", "sometimes"], '--permission-mode must be one of default, acceptEdits, plan, bypass, dontAsk, got "sometimes"'],
    [["-p", "x", "--model", "nowhere/none"], "Model not found: nowhere/none"],
    [["hello"], 'unexpected argument: hello (to run a prompt: nova -p "hello")'],
  ])("exit 2 for a usage error: %p", async (args, message) => {
    const run = await runOnce(args as string[], { binary });
    expect(run.code).toBe(2);
    expect(run.stdout).toBe("");
    expect(run.stderr).toContain(message as string);
  });

  test("Ctrl-C aborts the run: exit 130, and the session file ends with the aborted answer", async () => {
    const home = tempDir("nova-home-");
    const sessions = tempDir("nova-sessions-");
    scriptedConfig(home, "- reply:\n    - tool: ls\n    - text: 'slow answer'\n    - delayMs: 60000\n");
    const proc = spawnOnce(["-p", "wait", "--session-dir", sessions], { binary, home });
    const stderr = proc.stderr.getReader();
    let seen = "";
    while (!seen.includes("tool ls")) {
      const chunk = await stderr.read();
      if (chunk.done) break;
      seen += new TextDecoder().decode(chunk.value);
    }
    expect(seen).toContain("tool ls {} → ok");
    proc.kill("SIGINT");
    const [stdout, code] = await Promise.all([new Response(proc.stdout).text(), proc.exited]);
    expect(code).toBe(130);
    expect(stdout).toBe("");
    const [file] = readdirSync(sessions);
    const entries = readFileSync(join(sessions, file!), "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    const last = entries.at(-1);
    // the signal may come before or after the text streamed; either way the answer is saved as aborted
    expect(last.message).toMatchObject({ role: "assistant", stopReason: "aborted", errorMessage: "Request was aborted" });
    expect(["", "slow answer"]).toContain(last.message.content.map((c: { text: string }) => c.text).join(""));
  });

  test("a flagged command is denied at once with a line saying how to allow it; bypass runs it, deny rules still hold", async () => {
    const home = tempDir("nova-home-");
    const script = "- reply:\n    - tool: bash\n      arguments: {command: 'rm -rf ./victim'}\n    - text: 'after: {{ result.bash | head 1 }}'\n";
    scriptedConfig(home, script);
    const cwd = tempDir("nova-cwd-");
    mkdirSync(join(cwd, "victim"));

    const denied = await runOnce(["-p", "clean up"], { binary, home, cwd });
    expect(denied.code).toBe(0);
    expect(existsSync(join(cwd, "victim"))).toBe(true);
    expect(denied.stderr).toMatch(
      /^nova: denied: bash: not run: "rm -rf \.\/victim" needs approval \(flagged because .+\), and the permission mode is dontAsk.*--permission-mode bypass or add an allow rule for it to permissions\.bash\.allow/m,
    );
    expect(denied.stdout).toStartWith("after: bash: not run:");

    const bypass = await runOnce(["-p", "clean up", "--permission-mode", "bypass"], { binary, home, cwd });
    expect(bypass.code).toBe(0);
    expect(existsSync(join(cwd, "victim"))).toBe(false);
    expect(bypass.stderr).not.toContain("denied");

    mkdirSync(join(cwd, "victim"));
    scriptedConfig(home, script, "permissions:\n  bash:\n    deny: ['rm *']\n");
    const ruled = await runOnce(["-p", "clean up", "--permission-mode", "bypass"], { binary, home, cwd });
    expect(existsSync(join(cwd, "victim"))).toBe(true);
    expect(ruled.stdout).toContain('blocked by the deny rule "rm *"');
  });
});

describe("nova with no arguments", () => {
  test("in a terminal it prints a short help naming -p, --mode rpc and the docs", async () => {
    const proc = Bun.spawn(["script", "-qec", binary, "/dev/null"], { env: { PATH: process.env.PATH, NOVA_HOME: tempDir("nova-home-") }, stdout: "pipe", stdin: "ignore" });
    const [out, code] = await Promise.all([new Response(proc.stdout).text(), proc.exited]);
    expect(code).toBe(0);
    expect(out).toContain('nova -p "what is in this folder?" --model scripted/demo');
    expect(out).toContain("nova --mode rpc");
    expect(out).toContain("docs/print.md");
  });

  test("--help shows examples", async () => {
    const run = await runOnce(["--help"], { binary });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("Examples:");
    expect(run.stdout).toContain('git diff | nova -p "review this change"');
  });
});

describe("the README", () => {
  test("its first command ends in the offline demo, and that part runs as written", async () => {
    const readme = readFileSync(join(ROOT, "README.md"), "utf8");
    const first = /```sh\n(.*)\n```/.exec(readme)![1]!;
    expect(first).toStartWith("npm install -g bun@1.4.4 && bun install --frozen-lockfile && bun run build && ");
    const demo = first.slice(first.lastIndexOf("&& ") + 3);
    expect(demo).toBe('./dist/nova -p "what is in this folder?" --model scripted/demo');
    const proc = Bun.spawn(["bash", "-c", demo], { cwd: ROOT, env: { PATH: process.env.PATH, NOVA_HOME: tempDir("nova-home-") }, stdout: "pipe", stderr: "pipe", stdin: "ignore" });
    const [out, code] = await Promise.all([new Response(proc.stdout).text(), proc.exited]);
    expect(code).toBe(0);
    expect(out).toContain("- **README.md** begins with: nova");
  });
});
