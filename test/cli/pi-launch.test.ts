/** Pi's launch lines through the real process (Pi 1.6.0 docs/cli.md): sessions, models, tools, prompts. */
import { describe, expect, test } from "bun:test";
import { readFileSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { promptAndSettle, scenarios, testConfig } from "../support/scenario.ts";
import { fixtures } from "../support/fixtures/index.ts";
import { spawnNova, tempDir } from "../support/nova.ts";

const setup = scenarios();
const f = fixtures.openaiChat;

/** Several processes one after another: under a loaded machine that takes longer than bun's default 5 s. */
const SLOW = 60_000;

const jsonl = (dir: string) => readdirSync(dir).filter((n) => n.endsWith(".jsonl"));
const roles = (body: any) => body.messages.map((m: any) => m.role);

/** A process with one exchange in a fresh session of `cwd`; resolves with its get_state. */
async function oneExchange(cwd: string, home: string, text: string) {
  const s = await setup({ args: [], cwd, home });
  s.server.enqueue(f.text(`${text} answer`));
  await promptAndSettle(s.nova, text);
  const state = (await s.nova.request({ type: "get_state" })).data;
  await s.close();
  return state;
}

async function refused(args: string[], config?: object): Promise<string> {
  const nova = spawnNova({ args, config });
  expect(await nova.exited).toBe(2);
  return nova.stderr;
}

describe("flags with no effect in nova", () => {
  test("a launch line carrying all of them starts and serves", async () => {
    const s = await setup({
      args: [
        "--mode",
        "rpc",
        "--no-themes",
        "--theme",
        "t.json",
        "--use-theme",
        "dark",
        "--no-extensions",
        "-ne",
        "-e",
        "x.ts",
        "--no-prompt-templates",
        "-np",
        "--prompt-template",
        "p.md",
        "--offline",
        "--verbose",
        "-a",
        "-na",
        "--tui-mode",
        "regular",
        "--no-session",
      ],
    });
    s.server.enqueue(f.text("hi"));
    const frames = await promptAndSettle(s.nova, "hello");
    expect(frames.some((fr) => fr.type === "agent_end")).toBe(true);
  });

  test("-r/--resume is refused with what to use instead", async () => {
    expect(await refused(["-r"])).toContain("use --continue for the newest session of this directory, or --session <path|id>");
  });
});

describe("sessions named on the command line", () => {
  test(
    "--session FILE that does not exist is created at that path, and reopened with its history",
    async () => {
      const cwd = tempDir("nova-cwd-");
      const file = join(tempDir("nova-where-"), "nested", "mine.jsonl");
      const first = await setup({ args: ["--session", file], cwd });
      expect((await first.nova.request({ type: "get_state" })).data.sessionFile).toBe(file);
      first.server.enqueue(f.text("one"), f.text("two"));
      await promptAndSettle(first.nova, "first");
      await promptAndSettle(first.nova, "second");
      expect(readFileSync(file, "utf8").split("\n")[0]).toContain('"type":"session"');
      await first.close();

      const second = await setup({ args: ["--session", file], cwd });
      const state = (await second.nova.request({ type: "get_state" })).data;
      expect(state).toMatchObject({ sessionFile: file, messageCount: 4 });
      second.server.enqueue(f.text("three"));
      await promptAndSettle(second.nova, "third");
      expect(roles(second.server.requests[0]!.body)).toEqual(["system", "user", "assistant", "user", "assistant", "user"]);
    },
    SLOW,
  );

  test(
    "--session ID (a prefix) and --continue find sessions of the cwd",
    async () => {
      const cwd = tempDir("nova-cwd-");
      const home = tempDir("nova-home-");
      const older = await oneExchange(cwd, home, "older");
      const newer = await oneExchange(cwd, home, "newer");

      const byId = await setup({ args: ["--session", older.sessionId.slice(0, 8)], cwd, home });
      expect((await byId.nova.request({ type: "get_state" })).data.sessionFile).toBe(older.sessionFile);
      const cont = await setup({ args: ["-c"], cwd, home });
      expect((await cont.nova.request({ type: "get_state" })).data.sessionFile).toBe(newer.sessionFile);
      expect(await refused(["--session", "nosuchid"])).toContain('--session: no session found matching "nosuchid"');
    },
    SLOW,
  );

  test(
    "--session-id opens the cwd's session with that id, or starts one with it",
    async () => {
      const cwd = tempDir("nova-cwd-");
      const home = tempDir("nova-home-");
      const newer = await oneExchange(cwd, home, "newer");
      const existing = await setup({ args: ["--session-id", newer.sessionId], cwd, home });
      expect((await existing.nova.request({ type: "get_state" })).data).toMatchObject({ sessionFile: newer.sessionFile, messageCount: 2 });
      const created = await setup({ args: ["--session-id", "my-own.id"], cwd, home });
      const fresh = (await created.nova.request({ type: "get_state" })).data;
      expect(fresh).toMatchObject({ sessionId: "my-own.id", messageCount: 0 });
      expect(fresh.sessionFile).toEndWith("_my-own.id.jsonl");
    },
    SLOW,
  );

  test(
    "--fork continues a copy as a new session; --name names it",
    async () => {
      const cwd = tempDir("nova-cwd-");
      const home = tempDir("nova-home-");
      const source = await oneExchange(cwd, home, "original");
      const before = readFileSync(source.sessionFile, "utf8");

      const fork = await setup({ args: ["--fork", source.sessionFile, "-n", "forked work"], cwd, home });
      const state = (await fork.nova.request({ type: "get_state" })).data;
      expect(state.sessionId).not.toBe(source.sessionId);
      expect(state).toMatchObject({ sessionName: "forked work", messageCount: 2 });
      fork.server.enqueue(f.text("continued"));
      await promptAndSettle(fork.nova, "go on");
      expect(roles(fork.server.requests[0]!.body)).toEqual(["system", "user", "assistant", "user"]);
      expect(readFileSync(source.sessionFile, "utf8")).toBe(before);
      const header = JSON.parse(readFileSync(state.sessionFile, "utf8").split("\n")[0]!);
      expect(header.parentSession).toBe(source.sessionFile);
    },
    SLOW,
  );

  test(
    "PI_CODING_AGENT_SESSION_DIR is where sessions go unless --session-dir says otherwise",
    async () => {
      const piDir = tempDir("nova-pi-sessions-");
      const s = await setup({ args: [], env: { PI_CODING_AGENT_SESSION_DIR: piDir } });
      s.server.enqueue(f.text("ok"));
      await promptAndSettle(s.nova, "hello");
      expect(jsonl(piDir)).toHaveLength(1);
      const own = tempDir("nova-own-");
      const t = await setup({ args: ["--session-dir", own], env: { PI_CODING_AGENT_SESSION_DIR: piDir } });
      t.server.enqueue(f.text("ok"));
      await promptAndSettle(t.nova, "hello");
      expect(jsonl(own)).toHaveLength(1);
      expect(jsonl(piDir)).toHaveLength(1);
    },
    SLOW,
  );
});

describe("models", () => {
  test(
    "a bare --model id is found across providers; :level sets the thinking level",
    async () => {
      const s = await setup({ args: ["--no-session", "--model", "m2:high"], model: { reasoning: true }, extra: {} });
      expect((await s.nova.request({ type: "get_state" })).data).toMatchObject({ model: { provider: "test", id: "m2" } });
      const t = await setup({ args: ["--no-session", "--model", "m1:high"], reasoning: true });
      expect((await t.nova.request({ type: "get_state" })).data).toMatchObject({ model: { id: "m1" }, thinkingLevel: "high" });
    },
    SLOW,
  );

  test(
    "an id several providers offer is an error naming them",
    async () => {
      const base = testConfig("http://127.0.0.1:9");
      const config = { ...base, providers: { ...base.providers, other: { ...base.providers.test } } };
      const stderr = await refused(["--model", "m1"], config);
      expect(stderr).toContain("--model m1 matches several models: test/m1, other/m1");
      expect(await refused(["--model", "nope"], config)).toContain("Model not found: nope");
    },
    SLOW,
  );

  test("--models is the set cycle_model cycles, starting with its first", async () => {
    const s = await setup({ args: ["--no-session", "--models", "test/m2,test/m1:low"], reasoning: true });
    expect((await s.nova.request({ type: "get_state" })).data.model.id).toBe("m2");
    const cycled = await s.nova.request({ type: "cycle_model" });
    expect(cycled.data).toMatchObject({ model: { id: "m1" }, thinkingLevel: "low", isScoped: true });
    expect((await s.nova.request({ type: "cycle_model" })).data).toMatchObject({ model: { id: "m2" }, isScoped: true });
  });

  test(
    "--api-key reaches the provider and is written nowhere",
    async () => {
      const key = "sk-from-the-command-line-987654";
      const dir = tempDir("nova-sessions-");
      const s = await setup({ args: ["--session-dir", dir, "--model", "test/m1", "--api-key", key], extra: { retry: { enabled: false } } });
      s.server.enqueue(fixtures.httpError(401, { error: { message: `Incorrect API key provided: ${key} (try another)` } }));
      const frames = await promptAndSettle(s.nova, "hi");
      expect(s.server.requests[0]!.headers.authorization).toBe(`Bearer ${key}`);
      const state = await s.nova.request({ type: "get_state" });
      await s.close();
      const everything = JSON.stringify(frames) + JSON.stringify(state) + readFileSync(join(dir, jsonl(dir)[0]!), "utf8") + s.nova.stderr;
      expect(everything).toContain("Incorrect API key provided");
      expect(everything).not.toContain(key);
      expect(await refused(["--api-key", key])).toContain("--api-key needs a model chosen with --model or --models");
    },
    SLOW,
  );
});

describe("tools and the system prompt", () => {
  const toolNames = (body: any) => (body.tools ?? []).map((t: any) => t.function.name).sort();

  test.each([
    [
      ["-t", "read,bash"],
      ["bash", "read"],
    ],
    [
      ["-t", "-write,-edit"],
      ["bash", "find", "grep", "ls", "read", "task", "todo", "view_image", "zoom"],
    ],
    [
      ["-xt", "*i*"],
      ["bash", "grep", "ls", "read", "task", "todo", "zoom"],
    ],
    [["-nt"], []],
    [["-nbt"], []],
  ])("%p", async (flags, expected) => {
    const s = await setup({ args: ["--no-session", ...flags] });
    s.server.enqueue(f.text("ok"));
    await promptAndSettle(s.nova, "hi");
    expect(toolNames(s.server.requests[0]!.body)).toEqual([...expected].sort());
  });

  test(
    "--system-prompt and a repeated --append-system-prompt take text or a file; -nc leaves AGENTS.md out",
    async () => {
      const cwd = tempDir("nova-cwd-");
      writeFileSync(join(cwd, "base.md"), "BASE PROMPT FROM FILE");
      writeFileSync(join(cwd, "AGENTS.md"), "AGENTS FILE TEXT");
      const s = await setup({ args: ["--no-session", "--system-prompt", "base.md", "--append-system-prompt", "APPENDED TEXT", "--append-system-prompt", "base.md"], cwd });
      s.server.enqueue(f.text("ok"));
      await promptAndSettle(s.nova, "hi");
      const system = s.server.requests[0]!.body.messages[0].content as string;
      expect(system).toContain("BASE PROMPT FROM FILE");
      expect(system).toContain("APPENDED TEXT");
      expect(system.indexOf("APPENDED TEXT")).toBeLessThan(system.lastIndexOf("BASE PROMPT FROM FILE"));
      expect(system).toContain("AGENTS FILE TEXT");
      const t = await setup({ args: ["--no-session", "-nc"], cwd });
      t.server.enqueue(f.text("ok"));
      await promptAndSettle(t.nova, "hi");
      expect(t.server.requests[0]!.body.messages[0].content).not.toContain("AGENTS FILE TEXT");
    },
    SLOW,
  );
});
