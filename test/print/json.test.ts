/**
 * `nova --mode json "p1" "p2"` through the compiled executable: the session
 * header, then each prompt's RPC event frames ending in agent_settled, every
 * line valid against `--print-schema`; sessions saved, resumed, or not kept.
 */
import { beforeAll, describe, expect, test, setDefaultTimeout } from "bun:test";
import { readdirSync, readFileSync, realpathSync } from "node:fs";
import { join } from "node:path";
import Ajv2020 from "../schema/generators/node_modules/ajv/dist/2020.js";
import { startNova, tempDir } from "../support/nova.ts";
import { BINARY, requireBinary } from "../support/targets.ts";
import { runOnce, scriptedConfig } from "./run.ts";

// several spawns per test: the preload's 30 s, stated here too so a busy machine's load cannot cut it to bun's 5 s
setDefaultTimeout(30_000);

const binary = BINARY;
let validate: ((data: unknown) => boolean) & { errors?: unknown };
let ajv: Ajv2020;

beforeAll(async () => {
  requireBinary();
  const printed = await runOnce(["--print-schema"], { binary });
  const schema = JSON.parse(printed.stdout);
  ajv = new Ajv2020({ strict: true });
  ajv.addSchema(schema, "nova");
  validate = ajv.getSchema("nova#/$defs/Frame")!;
});

const SCRIPT = `
- match: "^first$"
  reply:
    - tool: ls
    - text: "saw {{ result.ls | count }} entries"
- match: "^second$"
  reply: [{thinking: "again"}, {text: "second answer"}]
- reply: [{text: "prompts so far: {{ prompt }}"}]
`;

function frames(stdout: string): Record<string, any>[] {
  expect(stdout.endsWith("\n")).toBe(true);
  return stdout
    .trimEnd()
    .split("\n")
    .map((line) => JSON.parse(line));
}

function runs(lines: Record<string, any>[]): Record<string, any>[][] {
  const out: Record<string, any>[][] = [[]];
  for (const frame of lines) {
    out.at(-1)!.push(frame);
    if (frame.type === "agent_settled") out.push([]);
  }
  expect(out.pop()).toEqual([]);
  return out;
}

describe("nova --mode json", () => {
  test("a session header, then each prompt's frames ending with agent_settled, all valid against --print-schema", async () => {
    const home = tempDir("nova-home-");
    const cwd = tempDir("nova-cwd-");
    scriptedConfig(home, SCRIPT);
    const run = await runOnce(["--mode", "json", "first", "second"], { binary, home, cwd });
    expect(run.code).toBe(0);
    const lines = frames(run.stdout);
    for (const frame of lines) {
      if (!validate(frame)) throw new Error(`${frame.type} does not fit the schema's Frame: ${ajv.errorsText(validate.errors as never)}`);
    }
    const [header, ...rest] = lines;
    expect(Object.keys(header!)).toEqual(["type", "version", "id", "timestamp", "cwd"]);
    expect(header).toMatchObject({ type: "session", version: 3, cwd: realpathSync(cwd) });
    const [first, second] = runs(rest);
    for (const r of [first!, second!]) {
      expect(r[0]!.type).toBe("agent_start");
      expect(r.filter((f) => f.type === "agent_end")).toHaveLength(1);
    }
    expect(first!.filter((f) => f.type === "tool_execution_end").map((f) => f.toolName)).toEqual(["ls"]);
    expect(first!.findLast((f) => f.type === "message_end")!.message.content).toEqual([{ type: "text", text: "saw 1 entries" }]);
    expect(second!.some((f) => f.type === "message_update" && f.assistantMessageEvent.type === "thinking_delta")).toBe(true);
    expect(second!.findLast((f) => f.type === "message_end")!.message.content.at(-1)).toEqual({ type: "text", text: "second answer" });

    // saved as in rpc mode: the file's header is the one printed
    const dirs = readdirSync(join(home, "sessions"));
    const file = readdirSync(join(home, "sessions", dirs[0]!))[0]!;
    const saved = JSON.parse(readFileSync(join(home, "sessions", dirs[0]!, file), "utf8").split("\n")[0]!);
    expect(saved.id).toBe(header!.id);
  });

  test("--continue goes on with the newest session of the cwd; --session names one; --no-session keeps nothing", async () => {
    const home = tempDir("nova-home-");
    const cwd = tempDir("nova-cwd-");
    scriptedConfig(home, SCRIPT);
    const one = frames((await runOnce(["--mode", "json", "first"], { binary, home, cwd })).stdout);
    const two = await runOnce(["--mode", "json", "--continue", "again"], { binary, home, cwd });
    expect(two.code).toBe(0);
    const resumed = frames(two.stdout);
    expect(resumed[0]!.id).toBe(one[0]!.id);
    const three = frames((await runOnce(["--mode", "json", "--session", one[0]!.id, "second"], { binary, home, cwd })).stdout);
    expect(three[0]!.id).toBe(one[0]!.id);
    const dir = join(home, "sessions", readdirSync(join(home, "sessions"))[0]!);
    expect(readdirSync(dir)).toHaveLength(1);
    const users = readFileSync(join(dir, readdirSync(dir)[0]!), "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l))
      .filter((e) => e.type === "message" && e.message.role === "user")
      .map((e) => e.message.content);
    expect(users).toEqual(["first", "again", "second"]);

    const missing = await runOnce(["--mode", "json", "--session", "no-such-id", "x"], { binary, home, cwd });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain(`--session: no session found matching "no-such-id"`);

    const home2 = tempDir("nova-home-");
    scriptedConfig(home2, SCRIPT);
    const gone = await runOnce(["--mode", "json", "--no-session", "first"], { binary, home: home2, cwd });
    expect(gone.code).toBe(0);
    expect(readdirSync(home2).includes("sessions")).toBe(false);
  });

  test("rpc mode resumes the same way: --continue before ready, --session naming a missing one exits 2", async () => {
    const home = tempDir("nova-home-");
    const cwd = tempDir("nova-cwd-");
    scriptedConfig(home, SCRIPT);
    const one = frames((await runOnce(["--mode", "json", "first"], { binary, home, cwd })).stdout);
    const nova = await startNova({ home, cwd, args: ["--continue"] });
    try {
      const state = await nova.request({ type: "get_state" });
      expect(state.data.sessionId).toBe(one[0]!.id);
      expect(state.data.messageCount).toBe(4);
    } finally {
      await nova.stop();
    }
    const missing = await runOnce(["--mode", "rpc", "--session", "nope"], { binary, home, cwd, stdin: "" });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain(`--session: no session found matching "nope"`);
  });

  test("a failed run ends the stream with its agent_settled and exit 1", async () => {
    const home = tempDir("nova-home-");
    scriptedConfig(home, "- match: ok\n  reply: [{text: fine}]\n- reply: [{error: {status: 401, message: 'no key'}}]\n");
    const run = await runOnce(["--mode", "json", "ok", "bad", "never"], { binary, home });
    expect(run.code).toBe(1);
    const lines = frames(run.stdout);
    expect(lines.at(-1)!.type).toBe("agent_settled");
    expect(runs(lines.slice(1))).toHaveLength(2);
    expect(run.stderr).toContain("nova: error: no key");
  });
});
