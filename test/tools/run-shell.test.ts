import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtemp, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runShell } from "../../src/tools/run-shell.ts";
import { waitUntilGone } from "./process.ts";

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "nova-shell-"));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

/** Resolves with the pids a command printed as `name=pid` once they appear in its streamed output. */
function pidsFrom(names: string[]) {
  const { promise, resolve } = Promise.withResolvers<number[]>();
  const onOutput = (tail: string) => {
    const pids = names.map((n) => new RegExp(`${n}=(\\d+)`).exec(tail)?.[1]);
    if (pids.every(Boolean)) resolve(pids.map(Number));
  };
  return { promise, onOutput };
}

describe("runShell", () => {
  test("runs in the cwd, merges stderr, reports the exit code", async () => {
    const r = await runShell("pwd; echo oops >&2; exit 3", { cwd: dir });
    expect(r.output).toContain(dir);
    expect(r.output).toContain("oops");
    expect(r).toMatchObject({ exitCode: 3, cancelled: false, timedOut: false, truncated: false });
    expect(r.fullOutputPath).toBeUndefined();
  });

  test("abort kills the whole group, including a child that ignores SIGTERM", async () => {
    const controller = new AbortController();
    const seen = pidsFrom(["shell", "child"]);
    const running = runShell("trap '' TERM; sleep 100 & echo child=$!; echo shell=$$; wait", {
      cwd: dir,
      signal: controller.signal,
      onOutput: seen.onOutput,
    });
    const [shellPid, childPid] = await seen.promise;
    controller.abort();
    const r = await running;
    expect(r.cancelled).toBe(true);
    expect(r.exitCode).toBeNull();
    expect(await waitUntilGone(shellPid!)).toBe(true);
    expect(await waitUntilGone(childPid!)).toBe(true);
  });

  test("a timeout kills a shell that ignores SIGTERM", async () => {
    const seen = pidsFrom(["shell"]);
    const started = performance.now();
    const r = await runShell("trap '' TERM; echo shell=$$; sleep 100", { cwd: dir, timeoutMs: 300, onOutput: seen.onOutput });
    const [shellPid] = await seen.promise;
    expect(r.timedOut).toBe(true);
    expect(r.cancelled).toBe(false);
    expect(performance.now() - started).toBeLessThan(10_000);
    expect(await waitUntilGone(shellPid!)).toBe(true);
  });

  test("10 MB of output is capped, the full log is on disk", async () => {
    const r = await runShell("head -c 10000000 /dev/zero | tr '\\0' 'x' | fold -w 99; echo; echo LAST", { cwd: dir });
    expect(r.truncated).toBe(true);
    expect(r.output.length).toBeLessThanOrEqual(50 * 1024);
    expect(r.output.split("\n").length).toBeLessThanOrEqual(2001);
    expect(r.output.trimEnd().endsWith("LAST")).toBe(true);
    expect(r.fullOutputPath).toBeDefined();
    expect((await stat(r.fullOutputPath!)).size).toBeGreaterThan(10_000_000);
    await rm(r.fullOutputPath!);
  });

  test("many short lines are cut to the last 2000", async () => {
    const r = await runShell("seq 1 5000", { cwd: dir });
    const lines = r.output.trimEnd().split("\n");
    expect(lines.length).toBe(2000);
    expect(lines[0]).toBe("3001");
    expect(r.truncated).toBe(true);
    expect(await Bun.file(r.fullOutputPath!).text()).toStartWith("1\n2\n3\n");
    await rm(r.fullOutputPath!);
  });

  test("a PTY makes the command see a terminal; CRLF and colours are cleaned", async () => {
    const r = await runShell("[ -t 1 ] && echo is-a-tty; printf '\\033[31mred\\033[0m\\n'", { cwd: dir, usePty: true });
    expect(r.output).toBe("is-a-tty\nred\n");
    const piped = await runShell("[ -t 1 ] && echo is-a-tty || echo no-tty", { cwd: dir });
    expect(piped.output).toBe("no-tty\n");
  });

  test("a background child holding the pipe does not hold up the result", async () => {
    const r = await runShell("sleep 30 & echo bg=$!", { cwd: dir });
    const bg = Number(/bg=(\d+)/.exec(r.output)![1]);
    expect(r.exitCode).toBe(0);
    process.kill(bg, "SIGKILL");
  });
});

describe("runShell failures", () => {
  test("a missing cwd is an error naming it", async () => {
    const err = await runShell("true", { cwd: join(tmpdir(), "nova-no-such-dir-xyz") }).catch((e) => e);
    expect(err.message).toContain("nova-no-such-dir-xyz");
  });
});
