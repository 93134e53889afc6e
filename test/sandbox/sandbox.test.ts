/**
 * The OS sandbox through the real process (docs/sandbox.md): bash tool
 * commands run under bubblewrap with the cwd writable, the rest of the disk
 * read-only, no network unless allowed, and the secrets hidden. The victim
 * folders and the home live outside /tmp, since the sandbox gives commands a
 * private /tmp of their own.
 */
import { afterEach, expect, test } from "bun:test";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fixtures } from "../support/fixtures/index.ts";
import { ROOT, startNova, spawnNova, tempDir, type Frame } from "../support/nova.ts";
import { scenarios, type Scenario } from "../support/scenario.ts";

const f = fixtures.openaiChat;
const open = scenarios();
const outsideTmp = (prefix: string) => mkdtempSync(join("/var/tmp", prefix));
const servers: { stop(force?: boolean): void }[] = [];
afterEach(() => {
  for (const s of servers.splice(0)) s.stop(true);
});

async function sandboxed(sandbox: Record<string, unknown> = {}, env: Record<string, string> = {}): Promise<Scenario> {
  const home = outsideTmp("nova-sbx-home-");
  return open({ home, env, extra: { sandbox: { mode: "workspace-write", ...sandbox } } });
}

/** Runs one bash tool call; answers a permission request with `approve` when one comes. */
async function bash(s: Scenario, command: string, opts: { approve?: boolean; timeout?: number } = {}) {
  const from = s.nova.frames.length;
  s.server.enqueue(f.toolCalls([{ id: "c1", name: "bash", args: { command, ...(opts.timeout ? { timeout: opts.timeout } : {}) } }]), f.text("done"));
  await s.nova.request({ type: "prompt", message: "run it" });
  const next = await s.nova.waitFor((fr) => fr.type === "permission_request" || fr.type === "tool_execution_end", from);
  let asked = false;
  if (next.type === "permission_request") {
    asked = true;
    await s.nova.request({ type: "permission_response", requestId: next.requestId, approved: opts.approve ?? true });
  }
  const end = await s.nova.waitFor((fr) => fr.type === "tool_execution_end", from);
  await s.nova.waitFor((fr) => fr.type === "agent_settled", from);
  return { asked, text: end.result.content[0].text as string, end };
}

test("a write inside the cwd succeeds; one outside fails and the model is told the sandbox blocked it", async () => {
  const s = await sandboxed();
  const victim = outsideTmp("nova-sbx-victim-");
  const inside = await bash(s, "echo hello > inside.txt && cat inside.txt");
  expect(inside.asked).toBe(false);
  expect(inside.text).toContain("hello");
  expect(readFileSync(join(s.cwd, "inside.txt"), "utf8")).toBe("hello\n");

  const outside = await bash(s, `echo pwned > ${victim}/out.txt`, { approve: true });
  expect(outside.asked).toBe(true);
  expect(existsSync(join(victim, "out.txt"))).toBe(false);
  expect(outside.end.isError).toBe(true);
  expect(outside.text).toContain("blocked by the sandbox: write outside the workspace");
});

test("rm -rf ~ inside the sandbox leaves the home intact, even when approved", async () => {
  const s = await sandboxed();
  const home = s.nova.home;
  writeFileSync(join(home, "keep.txt"), "still here");
  const result = await bash(s, "rm -rf ~", { approve: true });
  expect(result.asked).toBe(true);
  expect(readFileSync(join(home, "keep.txt"), "utf8")).toBe("still here");
  expect(result.text).toContain("blocked by the sandbox");
});

test("commands flagged only for changing files in the workspace run unasked (autoAllow), and ask when autoAllow is off", async () => {
  const s = await sandboxed();
  mkdirSync(join(s.cwd, "build"));
  const auto = await bash(s, "rm -rf build && echo removed");
  expect(auto.asked).toBe(false);
  expect(existsSync(join(s.cwd, "build"))).toBe(false);

  const strict = await sandboxed({ autoAllow: false });
  mkdirSync(join(strict.cwd, "build"));
  const asked = await bash(strict, "rm -rf build", { approve: false });
  expect(asked.asked).toBe(true);
  expect(existsSync(join(strict.cwd, "build"))).toBe(true);
});

test("a connect to a loopback server fails with network off and works with it on", async () => {
  const server = Bun.listen({
    hostname: "127.0.0.1",
    port: 0,
    socket: {
      data() {},
      open(socket) {
        socket.end();
      },
    },
  });
  servers.push(server);
  const command = `exec 3<>/dev/tcp/127.0.0.1/${server.port} && echo connected`;

  const off = await sandboxed();
  const blocked = await bash(off, command);
  expect(blocked.text).not.toContain("connected\n");
  expect(blocked.end.isError).toBe(true);
  expect(blocked.text).toContain("blocked by the sandbox: no network access");

  const on = await sandboxed({ network: true });
  const allowed = await bash(on, command);
  expect(allowed.text).toContain("connected");
  expect(allowed.end.isError).toBe(false);
});

test("secrets are not visible: ~/.ssh, ~/.aws, nova's auth file and config, and sandbox.hidePaths", async () => {
  const extraSecret = outsideTmp("nova-sbx-secret-");
  writeFileSync(join(extraSecret, "token"), "EXTRA-SECRET-1");
  const s = await sandboxed({ hidePaths: [extraSecret] });
  const home = s.nova.home;
  mkdirSync(join(home, ".ssh"));
  writeFileSync(join(home, ".ssh", "id_rsa"), "SSH-SECRET-1");
  mkdirSync(join(home, ".aws"));
  writeFileSync(join(home, ".aws", "credentials"), "AWS-SECRET-1");
  writeFileSync(join(home, "auth.json"), JSON.stringify({ anthropic: { type: "api_key", key: "AUTH-SECRET-1" } }));
  writeFileSync(join(home, "visible.txt"), "VISIBLE-1");
  // The config (passed with --config, in the home) holds the provider's API key.
  const result = await bash(
    s,
    `cat ~/visible.txt; cat ~/.ssh/id_rsa ~/.aws/credentials ~/auth.json ~/test-config.yml ${extraSecret}/token; echo; echo ENTRIES=$(ls -A ~/.ssh ~/.aws ${extraSecret} | grep -v ':$' | grep -c .)`,
  );
  expect(result.text).toContain("VISIBLE-1");
  expect(result.text).toContain("ENTRIES=0");
  for (const secret of ["SSH-SECRET-1", "AWS-SECRET-1", "AUTH-SECRET-1", "sk-test-secret-key", "EXTRA-SECRET-1"]) expect(result.text).not.toContain(secret);
});

/** Whether any process on the machine has `marker` in its command line. */
function running(marker: string): boolean {
  const ps = Bun.spawnSync(["ps", "-eo", "args"]);
  return ps.stdout
    .toString()
    .split("\n")
    .some((line) => line.includes(marker) && !line.includes("ps -eo"));
}

async function gone(marker: string): Promise<boolean> {
  for (let i = 0; i < 100 && running(marker); i++) await Bun.sleep(50);
  return !running(marker);
}

test("a timeout kills the whole sandboxed process tree", async () => {
  const s = await sandboxed();
  const marker = `nova-sbx-timeout-${process.pid}-${Date.now()}`;
  const result = await bash(s, `(exec -a ${marker} sleep 300) & exec -a ${marker} sleep 300`, { timeout: 1 });
  expect(result.text).toContain("Timed out");
  expect(await gone(marker)).toBe(true);
});

test("an abort kills the whole sandboxed process tree", async () => {
  const s = await sandboxed();
  const marker = `nova-sbx-abort-${process.pid}-${Date.now()}`;
  const from = s.nova.frames.length;
  s.server.enqueue(f.toolCalls([{ id: "c1", name: "bash", args: { command: `(exec -a ${marker} sleep 300) & exec -a ${marker} sleep 300` } }]));
  await s.nova.request({ type: "prompt", message: "run it" });
  await s.nova.waitFor((fr) => fr.type === "tool_execution_start", from);
  for (let i = 0; i < 100 && !running(marker); i++) await Bun.sleep(50);
  expect(running(marker)).toBe(true);
  await s.nova.request({ type: "abort" });
  await s.nova.waitFor((fr) => fr.type === "agent_settled", from);
  expect(await gone(marker)).toBe(true);
});

test("the PTY still works inside the sandbox", async () => {
  const s = await sandboxed();
  const result = await bash(s, "[ -t 0 ] && [ -t 1 ] && echo is-a-terminal; stty size");
  expect(result.text).toContain("is-a-terminal");
  expect(result.text).toContain("50 200");
});

test("read-only: nothing may be written, not even in the cwd", async () => {
  const s = await open({ home: outsideTmp("nova-sbx-home-"), extra: { sandbox: { mode: "read-only" } } });
  const result = await bash(s, "echo x > here.txt");
  expect(existsSync(join(s.cwd, "here.txt"))).toBe(false);
  expect(result.text).toContain("blocked by the sandbox: the sandbox is read-only");
});

test("get_state.sandbox reports the mode, the network and the writable paths; --sandbox overrides the config", async () => {
  const writable = outsideTmp("nova-sbx-writable-");
  const s = await open({
    home: outsideTmp("nova-sbx-home-"),
    args: ["--no-session", "--sandbox", "read-only"],
    extra: { sandbox: { mode: "workspace-write", writablePaths: [writable] } },
  });
  const state = (await s.nova.request({ type: "get_state" })).data;
  expect(state.sandbox).toEqual({ mode: "read-only", network: false, writablePaths: [writable], active: true, backend: "bubblewrap" });
  const off = await open({});
  expect((await off.nova.request({ type: "get_state" })).data.sandbox).toMatchObject({ mode: "off", active: false });
});

test("a writable path from the config can be written", async () => {
  const writable = outsideTmp("nova-sbx-writable-");
  const s = await sandboxed({ writablePaths: [writable] });
  const result = await bash(s, `echo ok > ${writable}/w.txt`, { approve: true });
  expect(result.end.isError).toBe(false);
  expect(readFileSync(join(writable, "w.txt"), "utf8")).toBe("ok\n");
});

test("with no bwrap nova refuses to start and says what to install; fallback warn runs unsandboxed and says so", async () => {
  const home = tempDir("nova-sbx-home-");
  const config = { sandbox: { mode: "workspace-write" } };
  const refused = spawnNova({ home, config, env: { PATH: "/nonexistent" } });
  expect(await refused.exited).toBe(1);
  expect(refused.frames).toEqual([]);
  expect(refused.stderr).toContain("bubblewrap");
  expect(refused.stderr).toContain("apt-get install bubblewrap");

  const warned = await startNova({ home, config: { sandbox: { mode: "workspace-write", fallback: "warn" } }, env: { PATH: "/nonexistent" } });
  const state: Frame = (await warned.request({ type: "get_state" })).data;
  expect(state.sandbox).toMatchObject({ mode: "workspace-write", active: false });
  expect(state.sandbox.warning).toContain("unsandboxed");
  expect(warned.stderr).toContain("unsandboxed");
  await warned.stop();
});

test("--sandbox with an unknown mode is a usage error naming it", async () => {
  const nova = spawnNova({ args: ["--sandbox", "everything"] });
  expect(await nova.exited).toBe(2);
  expect(nova.stderr).toContain('--sandbox must be one of off, workspace-write, read-only, got "everything"');
});

test("a sub-agent's bash commands run in the same sandbox", async () => {
  const s = await sandboxed();
  const victim = outsideTmp("nova-sbx-victim-");
  const from = s.nova.frames.length;
  s.server.enqueue(
    f.toolCalls([{ id: "k1", name: "task", args: { task: "write the files", tools: ["bash"] } }]),
    f.toolCalls([{ id: "c1", name: "bash", args: { command: `echo in > child.txt; echo out > ${victim}/child.txt` } }]),
    f.text("child done"),
    f.text("parent done"),
  );
  await s.nova.request({ type: "prompt", message: "delegate" });
  const asked = await s.nova.waitFor((fr) => fr.type === "permission_request", from);
  await s.nova.request({ type: "permission_response", requestId: asked.requestId, approved: true });
  await s.nova.waitFor((fr) => fr.type === "agent_settled", from);
  expect(readFileSync(join(s.cwd, "child.txt"), "utf8")).toBe("in\n");
  expect(existsSync(join(victim, "child.txt"))).toBe(false);
  expect(JSON.stringify(s.server.requests[2]!.body)).toContain("blocked by the sandbox: write outside the workspace");
});

test("with sandbox.mcp an MCP stdio server runs in the sandbox: the real filesystem server cannot write outside the cwd", async () => {
  const { filesystem, statusOf } = await import("../mcp/support.ts");
  const victim = outsideTmp("nova-sbx-mcp-victim-");
  const run = async (mcp: boolean) => {
    const s = await open({
      home: outsideTmp("nova-sbx-home-"),
      // the server starts in the repository (its workspace), so its own files are visible wherever the clone lives, /tmp included
      extra: { sandbox: { mode: "workspace-write", mcp }, mcpServers: { fs: { ...filesystem(victim), cwd: ROOT } }, permissions: { mcp: { allow: ["fs__*"] } } },
    });
    await statusOf(s.nova, "fs", "connected");
    const target = join(victim, mcp ? "boxed.txt" : "free.txt");
    s.server.enqueue(f.toolCalls([{ id: "w1", name: "mcp__fs__write_file", args: { path: target, content: "x" } }]), f.text("done"));
    const from = s.nova.frames.length;
    await s.nova.request({ type: "prompt", message: "write" });
    const end = await s.nova.waitFor((fr) => fr.type === "tool_execution_end", from);
    await s.nova.waitFor((fr) => fr.type === "agent_settled", from);
    return { end, target };
  };
  const boxed = await run(true);
  expect(existsSync(boxed.target)).toBe(false);
  expect(boxed.end.isError).toBe(true);
  expect(JSON.stringify(boxed.end.result)).toMatch(/read-only file system|EROFS/i);
  // the same server without sandbox.mcp writes there: the sandbox made the difference
  const free = await run(false);
  expect(free.end.isError).toBe(false);
  expect(readFileSync(free.target, "utf8")).toBe("x");
}, 90_000);
