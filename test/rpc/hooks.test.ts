/** Claude-Code-compatible command hooks through the real process: allow, block, rewrite, ask, time out, fail, and each event. */
import { afterEach, expect, test } from "bun:test";
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { promptAndSettle, scenario, type Scenario } from "../support/scenario.ts";
import { fixtures } from "../support/fixtures/index.ts";
import { tempDir } from "../support/nova.ts";

const f = fixtures.openaiChat;
let s: Scenario | undefined;
afterEach(async () => {
  await s?.close();
  s = undefined;
});

/** A hook script in its own folder; `$HOOK_DIR` in the body is that folder. */
function script(body: string): { dir: string; path: string } {
  const dir = tempDir("nova-hook-");
  const path = join(dir, "hook.sh");
  writeFileSync(path, `#!/bin/bash\nHOOK_DIR=${JSON.stringify(dir)}\n${body}\n`);
  chmodSync(path, 0o755);
  return { dir, path };
}

const hooks = (event: string, command: string, extra: Record<string, unknown> = {}) => ({
  hooks: { [event]: [{ hooks: [{ type: "command", command, ...extra }], ...(extra.matcher ? { matcher: extra.matcher } : {}) }] },
});

async function tool(name: string, args: Record<string, unknown>) {
  s!.server.enqueue(f.toolCalls([{ id: "k1", name, args }]), f.text("finished"));
  const frames = await promptAndSettle(s!.nova, "go");
  return { frames, end: frames.find((fr) => fr.type === "tool_execution_end")! };
}

test("PreToolUse exit 2 blocks the call with its stderr; the hook gets Claude Code's event on stdin", async () => {
  const hook = script('cat > "$HOOK_DIR/input.json"\necho "no recursive rm here" >&2\nexit 2');
  s = await scenario({ extra: { hooks: { PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: hook.path }] }] } } });
  mkdirSync(join(s.cwd, "build"));
  const { end, frames } = await tool("bash", { command: "rm -rf build" });
  expect(end.isError).toBe(true);
  expect(end.result.content[0].text).toContain("blocked by a PreToolUse hook: no recursive rm here");
  expect(frames.some((fr) => fr.type === "permission_request")).toBe(false);
  expect(existsSync(join(s.cwd, "build"))).toBe(true);
  const input = JSON.parse(readFileSync(join(hook.dir, "input.json"), "utf8"));
  expect(input).toMatchObject({
    hook_event_name: "PreToolUse",
    tool_name: "Bash",
    tool_input: { command: "rm -rf build" },
    tool_use_id: "k1",
    cwd: s.cwd,
    permission_mode: "default",
  });
  expect(typeof input.session_id).toBe("string");
  // the matcher is a regular expression over the tool name: a read passes untouched
  writeFileSync(join(s.cwd, "a.txt"), "hello");
  expect((await tool("read", { path: "a.txt" })).end.isError).toBe(false);
});

test("PreToolUse allow: a flagged command runs unasked (deny rules still hold)", async () => {
  const hook = script(`echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","permissionDecisionReason":"trusted"}}'`);
  s = await scenario({ extra: { ...hooks("PreToolUse", hook.path), permissions: { bash: { deny: ["sudo *"] } } } });
  mkdirSync(join(s.cwd, "build"));
  const { frames, end } = await tool("bash", { command: "rm -rf build" });
  expect(frames.some((fr) => fr.type === "permission_request")).toBe(false);
  expect(end.isError).toBe(false);
  expect(existsSync(join(s.cwd, "build"))).toBe(false);
  expect((await tool("bash", { command: "sudo reboot" })).end.result.content[0].text).toContain('deny rule "sudo *"');
});

test("PreToolUse updatedInput rewrites the call (Claude Code's argument names map back); deny and ask decisions", async () => {
  const hook = script(`input=$(cat)
case "$input" in
  *'"Write"'*) echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","updatedInput":{"file_path":"b.txt","content":"rewritten"}}}' ;;
  *'"LS"'*) echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"no listing"}}' ;;
  *'"Read"'*) echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"ask","permissionDecisionReason":"reading is sensitive"}}' ;;
esac`);
  s = await scenario({ extra: hooks("PreToolUse", hook.path) });
  const write = await tool("write", { path: "a.txt", content: "original" });
  expect(write.end.isError).toBe(false);
  expect(existsSync(join(s.cwd, "a.txt"))).toBe(false);
  expect(readFileSync(join(s.cwd, "b.txt"), "utf8")).toBe("rewritten");
  const ls = await tool("ls", {});
  expect(ls.end.result.content[0].text).toContain("denied by a PreToolUse hook: no listing");
  const from = s.nova.frames.length;
  s.server.enqueue(f.toolCalls([{ id: "r1", name: "read", args: { path: "b.txt" } }]), f.text("finished"));
  await s.nova.request({ type: "prompt", message: "read" });
  const request = await s.nova.waitFor((fr) => fr.type === "permission_request", from);
  expect(request).toMatchObject({ toolName: "read", toolCallId: "r1", reason: "reading is sensitive" });
  await s.nova.request({ type: "permission_response", requestId: request.requestId, approved: true });
  await s.nova.waitFor((fr) => fr.type === "agent_settled", from);
  expect(s.nova.frames.slice(from).find((fr) => fr.type === "tool_execution_end")!.isError).toBe(false);
});

test("a hook that times out is killed and reported as hook_failed; one that fails is reported; neither stops the call, and a hook's stdout never reaches nova's", async () => {
  const slow = script("echo 'HOOK-STDOUT-MARKER'\nsleep 30");
  const failing = script("echo 'broken' >&2\nexit 1");
  s = await scenario({
    extra: {
      hooks: {
        PreToolUse: [{ hooks: [{ type: "command", command: slow.path, timeout: 1 }] }, { hooks: [{ type: "command", command: failing.path }] }],
      },
    },
  });
  writeFileSync(join(s.cwd, "a.txt"), "hello");
  const { frames, end } = await tool("read", { path: "a.txt" });
  expect(end.isError).toBe(false);
  const failed = frames.filter((fr) => fr.type === "hook_failed");
  expect(failed).toHaveLength(2);
  expect(failed.find((fr) => fr.command === slow.path)).toMatchObject({ hookEvent: "PreToolUse", timedOut: true });
  expect(failed.find((fr) => fr.command === slow.path)!.error).toContain("timed out after 1 s");
  expect(failed.find((fr) => fr.command === failing.path)).toMatchObject({ exitCode: 1, timedOut: false });
  expect(failed.find((fr) => fr.command === failing.path)!.error).toContain("broken");
  expect(JSON.stringify(s.nova.frames)).not.toContain("HOOK-STDOUT-MARKER");
});

test("PostToolUse adds context to the result; UserPromptSubmit adds context, or blocks the prompt; SessionStart's output reaches the first request", async () => {
  const post = script(`echo '{"hookSpecificOutput":{"hookEventName":"PostToolUse","additionalContext":"remember to run the tests"}}'`);
  const prompt = script(`input=$(cat)
case "$input" in
  *forbidden*) echo "that prompt is not allowed" >&2; exit 2 ;;
  *) echo "prompt context from the hook" ;;
esac`);
  const start = script("echo 'session start context'");
  s = await scenario({
    extra: {
      hooks: {
        PostToolUse: [{ matcher: "Write|Edit", hooks: [{ type: "command", command: post.path }] }],
        UserPromptSubmit: [{ hooks: [{ type: "command", command: prompt.path }] }],
        SessionStart: [{ hooks: [{ type: "command", command: start.path }] }],
      },
    },
  });
  const { end } = await tool("write", { path: "a.txt", content: "x" });
  expect(end.result.content.at(-1).text).toContain("remember to run the tests");
  const first = JSON.stringify(s.server.requests[0]!.body);
  expect(first).toContain("session start context");
  expect(first).toContain("prompt context from the hook");
  expect(JSON.stringify(s.server.requests[1]!.body)).toContain("remember to run the tests");
  // SessionStart's context comes once
  s.server.enqueue(f.text("ok"));
  await promptAndSettle(s.nova, "again");
  const last = s.server.requests.at(-1)!.body.messages.at(-1);
  expect(JSON.stringify(last)).not.toContain("session start context");
  const requests = s.server.requests.length;
  const from = s.nova.frames.length;
  await s.nova.request({ type: "prompt", message: "do the forbidden thing" });
  const blocked = await s.nova.waitFor((fr) => fr.type === "prompt_blocked", from);
  expect(blocked.reason).toBe("that prompt is not allowed");
  await s.nova.waitFor((fr) => fr.type === "agent_settled", from);
  expect(s.server.requests).toHaveLength(requests);
});

test("Stop exit 2 keeps the run going once with its reason; stop_hook_active tells the second call", async () => {
  const stop = script(`input=$(cat)
case "$input" in
  *'"stop_hook_active":false'*) echo "also update the changelog" >&2; exit 2 ;;
  *) exit 0 ;;
esac`);
  s = await scenario({ extra: hooks("Stop", stop.path) });
  s.server.enqueue(f.text("done"), f.text("changelog updated"));
  const frames = await promptAndSettle(s.nova, "work");
  expect(s.server.requests).toHaveLength(2);
  expect(JSON.stringify(s.server.requests[1]!.body)).toContain("Stop hook: also update the changelog");
  expect(frames.filter((fr) => fr.type === "agent_end")).toHaveLength(1);
});
