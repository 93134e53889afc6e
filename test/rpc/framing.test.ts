/** The byte path, through the real process: PROTOCOL.md §2–§3. */
import { afterEach, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { command, spawnNova, startNova, type Frame, type Nova } from "../support/nova.ts";
import { requireBinary, targets } from "../support/targets.ts";
import { PROTOCOL_VERSION } from "../../src/core/protocol.ts";
import pkg from "../../package.json" with { type: "json" };

const MiB = 1024 * 1024;
let running: Nova[] = [];
afterEach(async () => {
  await Promise.all(running.map((n) => n.stop()));
  running = [];
});

/** A command line padded with spaces inside the JSON to exactly `size` bytes. */
function recordOfSize(id: string, size: number): string {
  const base = JSON.stringify({ id, type: "get_last_assistant_text" });
  return base.slice(0, -1) + " ".repeat(size - base.length) + "}";
}

describe.each(targets)("framing ($name)", ({ binary }) => {
  if (binary) test("the compiled executable exists", requireBinary);
  async function nova(args: string[] = ["--no-session"]) {
    const n = await startNova({ args, binary });
    running.push(n);
    return n;
  }

  test("ready is the first frame and names nova's version, the protocol version and the sub-protocols served", async () => {
    const n = await nova();
    expect(n.frames[0]).toEqual({
      type: "ready",
      version: pkg.version,
      protocolVersion: PROTOCOL_VERSION,
      capabilities: expect.arrayContaining(["hostTools", "hostUris", "ui", "permissions", "mcp"]),
    });
    expect(PROTOCOL_VERSION).toMatch(/^\d+\.\d+$/);
  });

  test("a number id is echoed as a number, and a badly typed id is echoed on the error that names it", async () => {
    const n = await nova();
    const numbered = await n.request({ id: 7, type: "get_commands" });
    expect(numbered).toMatchObject({ id: 7, command: "get_commands", success: true, data: { commands: [] } });
    const zero = await n.request({ id: 0, type: "set_steering_mode", mode: "sideways" });
    expect(zero).toMatchObject({ id: 0, success: false });
    n.send({ id: true, type: "get_state" });
    const bad = await n.waitFor((f) => f.type === "response" && f.id === true);
    expect(bad).toMatchObject({ command: "get_state", success: false });
    expect(bad.error).toBe("id must be a string or a number, got true");
    n.send({ id: { nested: 1 }, type: "nope" });
    const unknown = await n.waitFor((f) => f.type === "response" && f.command === "nope");
    expect(unknown.id).toEqual({ nested: 1 });
    n.send({ id: 8, type: "bash", command: "echo numbered" });
    const update = await n.waitFor((f) => f.type === "bash_execution_update");
    expect(update.id).toBe(8);
  });

  test("the id is echoed on success, failure, unknown command and schema failure", async () => {
    const n = await nova();
    const ok = await n.request({ id: "a", type: "get_state" });
    expect(ok).toMatchObject({ id: "a", type: "response", command: "get_state", success: true });
    const failed = await n.request({ id: "b", type: "set_model", provider: "nope", modelId: "x" });
    expect(failed).toMatchObject({ id: "b", command: "set_model", success: false, error: "Model not found: nope/x" });
    const unknown = await n.request({ id: "c", type: "frobnicate" });
    expect(unknown).toMatchObject({ id: "c", command: "frobnicate", success: false, error: "Unknown command: frobnicate" });
    const invalid = await n.request({ id: "d", type: "set_steering_mode", mode: "sideways" });
    expect(invalid).toMatchObject({ id: "d", command: "set_steering_mode", success: false });
    expect(invalid.error).toBe('mode must be one of "all", "one-at-a-time", got "sideways"');
    const missing = await n.request({ id: "e", type: "prompt" });
    expect(missing.error).toBe("message is required");
  });

  test("a record split at every byte offset, in 1-byte and random-size writes, gives the same answers", async () => {
    const frames = [
      { id: "1", type: "set_session_name", name: "naïve ☃ 日本" },
      { id: "2", type: "get_state" },
      { id: "3", type: "set_steering_mode", mode: "bogus" },
      { id: "4", type: "nope" },
      { id: "5", type: "set_follow_up_mode", mode: "all" },
      { id: "6", type: "get_last_assistant_text" },
    ];
    const bytes = new TextEncoder().encode(frames.map((f) => JSON.stringify(f)).join("\n") + "\n");
    const summarize = (all: Frame[]) =>
      all.filter((f) => f.type === "response").map((f) => ({ id: f.id, success: f.success, error: f.error, name: f.data?.sessionName, followUp: f.data?.followUpMode }));

    const whole = await nova();
    whole.sendBytes(bytes);
    await whole.waitFor((f) => f.id === "6");
    const expected = summarize(whole.frames);
    expect(expected).toHaveLength(6);

    const oneByte = await nova();
    for (let i = 0; i < bytes.length; i++) oneByte.sendBytes(bytes.subarray(i, i + 1));
    await oneByte.waitFor((f) => f.id === "6");
    expect(summarize(oneByte.frames)).toEqual(expected);

    let seed = 7;
    const random = () => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff;
    for (let round = 0; round < 3; round++) {
      const n = await nova();
      for (let i = 0; i < bytes.length; ) {
        const size = 1 + Math.floor(random() * 40);
        n.sendBytes(bytes.subarray(i, i + size));
        i += size;
      }
      await n.waitFor((f) => f.id === "6");
      expect(summarize(n.frames)).toEqual(expected);
    }
  });

  test("CRLF line endings are accepted and blank lines ignored", async () => {
    const n = await nova();
    n.sendBytes(new TextEncoder().encode('\r\n   \n{"id":"x","type":"get_last_assistant_text"}\r\n\n'));
    const response = await n.waitFor((f) => f.id === "x");
    expect(response.success).toBe(true);
    n.send({ id: "y", type: "get_state" });
    await n.waitFor((f) => f.id === "y");
    expect(n.frames.filter((f) => f.type === "response")).toHaveLength(2);
  });

  test("U+2028 and U+2029 inside strings never split a record", async () => {
    const n = await nova();
    const name = "line\u2028sep\u2029para";
    n.send(`{"id":"n","type":"set_session_name","name":"${name}"}`);
    expect((await n.waitFor((f) => f.id === "n")).success).toBe(true);
    const state = await n.request({ type: "get_state" });
    expect(state.data.sessionName).toBe(name);
  });

  test("a record of exactly 8 MiB is accepted; 8 MiB + 1 is rejected once and the next record is answered", async () => {
    const n = await nova();
    n.send(recordOfSize("exact", 8 * MiB));
    expect(await n.waitFor((f) => f.id === "exact")).toMatchObject({ success: true });
    const before = n.frames.length;
    n.send(recordOfSize("over", 8 * MiB + 1));
    n.send({ id: "after", type: "get_last_assistant_text" });
    await n.waitFor((f) => f.id === "after");
    const between = n.frames.slice(before, -1);
    expect(between).toEqual([{ type: "response", command: "parse", success: false, error: `record exceeds 8 MiB limit (${8 * MiB + 1} bytes)` }]);
  });

  test("a record of 8 MiB with CRLF counts without the CR", async () => {
    const n = await nova();
    n.send(recordOfSize("crlf", 8 * MiB) + "\r");
    expect(await n.waitFor((f) => f.id === "crlf")).toMatchObject({ success: true });
  });

  test("a 64 MiB line with no LF ends in one error while memory stays under 100 MiB", async () => {
    const n = await nova();
    const chunk = new Uint8Array(MiB).fill(0x61);
    let peakKb = 0;
    const sample = () => {
      const status = readFileSync(`/proc/${n.pid}/status`, "utf8");
      peakKb = Math.max(peakKb, Number(/VmRSS:\s+(\d+)/.exec(status)![1]));
    };
    for (let i = 0; i < 64; i++) {
      n.proc.stdin.write(chunk);
      await n.proc.stdin.flush();
      // once flushed, all but one pipe buffer of it has been read by nova
      if (i % 4 === 3) sample();
    }
    n.send("");
    n.send({ id: "next", type: "get_last_assistant_text" });
    await n.waitFor((f) => f.id === "next");
    sample();
    const errors = n.frames.filter((f) => f.command === "parse");
    expect(errors).toEqual([{ type: "response", command: "parse", success: false, error: `record exceeds 8 MiB limit (${64 * MiB} bytes)` }]);
    expect(peakKb).toBeLessThan(100 * 1024);
  });

  test("invalid UTF-8 is a parse error, not a crash", async () => {
    const n = await nova();
    n.sendBytes(new Uint8Array([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0x22, 0x7d, 0x0a]));
    const error = await n.waitFor((f) => f.command === "parse");
    expect(error.success).toBe(false);
    expect(error.error).toContain("not valid UTF-8");
    expect((await n.request({ type: "get_last_assistant_text" })).success).toBe(true);
  });

  test("records that are not JSON objects are rejected one by one", async () => {
    const n = await nova();
    for (const line of ["[]", "42", '"x"', "null", "{not json"]) n.send(line);
    n.send({ id: "end", type: "get_last_assistant_text" });
    await n.waitFor((f) => f.id === "end");
    const errors = n.frames.filter((f) => f.command === "parse").map((f) => f.error);
    expect(errors).toHaveLength(5);
    expect(errors[0]).toContain("got an array");
    expect(errors[1]).toContain("got a number");
    expect(errors[2]).toContain("got a string");
    expect(errors[3]).toContain("got null");
    expect(errors[4]).toStartWith("Failed to parse command:");
    for (const f of n.frames.filter((f) => f.command === "parse")) expect(f.id).toBeUndefined();
  });

  test("stdin close ends the process with exit code 0", async () => {
    const n = await nova();
    n.closeStdin();
    expect(await n.exited).toBe(0);
  });

  test("SIGTERM ends the process with exit code 0", async () => {
    const n = await nova();
    n.proc.kill("SIGTERM");
    expect(await n.exited).toBe(0);
  });

  test("a slow reader of stdout loses no frame", async () => {
    const proc = Bun.spawn([...command({ binary }), "--no-session"], {
      stdin: "pipe",
      stdout: "pipe",
      stderr: "ignore",
      env: { ...process.env, NOVA_HOME: `${process.env.TMPDIR ?? "/tmp"}/nova-slow-${process.pid}` },
    });
    const count = 3000;
    let lines = "";
    for (let i = 0; i < count; i++) lines += JSON.stringify({ id: String(i), type: "get_state" }) + "\n";
    proc.stdin.write(lines);
    proc.stdin.end();
    const reader = proc.stdout.getReader();
    const decoder = new TextDecoder();
    let text = "";
    for (let reads = 0; ; reads++) {
      const { done, value } = await reader.read();
      if (done) break;
      text += decoder.decode(value, { stream: true });
      // a host that falls behind: nova must wait for it, not drop or reorder
      if (reads % 8 === 0) await Bun.sleep(5);
    }
    const frames = text
      .trimEnd()
      .split("\n")
      .map((l) => JSON.parse(l));
    const ids = frames.filter((f) => f.type === "response").map((f) => f.id);
    expect(ids).toEqual(Array.from({ length: count }, (_, i) => String(i)));
    expect(await proc.exited).toBe(0);
    expect(text.length).toBeGreaterThan(count * 1000);
  });
});

describe.each(targets)("command line ($name)", ({ binary }) => {
  test("an unknown flag exits 2 with a message on stderr and nothing on stdout", async () => {
    const n = spawnNova({ args: ["--frobnicate"], binary });
    expect(await n.exited).toBe(2);
    expect(n.frames).toEqual([]);
    expect(n.stderr).toContain("unknown option: --frobnicate");
  });

  test("a bad --thinking value exits 2 naming the value", async () => {
    const n = spawnNova({ args: ["--thinking", "lots"], binary });
    expect(await n.exited).toBe(2);
    expect(n.stderr).toContain("--thinking must be one of");
    expect(n.stderr).toContain('"lots"');
  });

  test("a bad config file exits 2 before ready, naming the file, the line and the field", async () => {
    const n = spawnNova({ binary, config: "providers:\n  local:\n    api: openai-chat\n    baseUrl: http://x\n    models:\n      - id: m\n        maxTokens: lots\n" });
    expect(await n.exited).toBe(2);
    expect(n.frames).toEqual([]);
    expect(n.stderr).toMatch(/test-config\.yml:7: providers\.local\.models\[0\]\.maxTokens must be a number, got "lots"/);
  });

  test("no config and no key: nova starts, and state and models answer", async () => {
    const n = await startNova({ binary, args: [] });
    running.push(n);
    const state = await n.request({ type: "get_state" });
    expect(state.data).toMatchObject({
      model: null,
      isStreaming: false,
      messageCount: 0,
      steeringMode: "one-at-a-time",
      followUpMode: "one-at-a-time",
      interruptMode: "immediate",
    });
    for (const key of [
      "sessionId",
      "sessionFile",
      "autoCompactionEnabled",
      "pendingMessageCount",
      "queuedMessageCount",
      "todoPhases",
      "systemPrompt",
      "dumpTools",
      "contextUsage",
      "isCompacting",
      "thinkingLevel",
    ]) {
      expect(state.data).toHaveProperty(key);
    }
    // optional, as in Pi: absent until the session has a name
    expect(state.data.sessionName).toBeUndefined();
    expect((await n.request({ type: "get_available_models" })).data).toEqual({ models: [] });
  });

  test("@file arguments are rejected", async () => {
    const n = spawnNova({ args: ["@notes.md"], binary });
    expect(await n.exited).toBe(2);
    expect(n.stderr).toContain("@file arguments are not accepted");
  });

  test("--version prints version, target and commit", async () => {
    const proc = Bun.spawn([...command({ binary }), "--version"], { stdout: "pipe" });
    const text = await new Response(proc.stdout).text();
    expect(await proc.exited).toBe(0);
    expect(text).toMatch(/^nova \d+\.\d+\.\d+ \(.+, .+\)\n$/);
  });
});
