/**
 * The published pi-acp adapter (pinned, test-only: test/compat/pi-acp, its own
 * package.json and lock) driving nova installed as `pi` on PATH — a symlink to
 * the compiled dist/nova, no wrapper — through the ACP SDK's client. pi-acp
 * spawns `pi --mode rpc --no-themes [--session FILE]` and answers Pi's
 * extension UI; nova must look like Pi to it in every step an editor takes.
 */
import { afterEach, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ClientSideConnection, ndJsonStream } from "@agentclientprotocol/sdk";
import type { Subprocess } from "bun";
import { TestClient, acpConfig, f, stdinStream } from "../acp/client.ts";
import { startProviderServer, type ProviderServer } from "../support/provider-server.ts";
import { tempDir } from "../support/nova.ts";
import { BINARY, requireBinary } from "../support/targets.ts";

const PI_ACP_DIR = join(import.meta.dir, "pi-acp");
const PI_ACP = join(PI_ACP_DIR, "node_modules/pi-acp/dist/index.js");
const SLOW = 120_000;

interface Editor {
  conn: ClientSideConnection;
  client: TestClient;
  server: ProviderServer;
  cwd: string;
  answers: string[];
  close(): Promise<void>;
}

let open: Editor | undefined;
afterEach(async () => {
  await open?.close();
  open = undefined;
});

beforeAll(() => {
  requireBinary();
  if (!existsSync(PI_ACP)) {
    const install = Bun.spawnSync([process.execPath, "install", "--frozen-lockfile"], { cwd: PI_ACP_DIR, stderr: "pipe", stdout: "pipe" });
    if (install.exitCode !== 0) throw new Error(`installing pi-acp in ${PI_ACP_DIR} failed: ${install.stderr.toString()}`);
  }
});

/** pi-acp under node, with `pi` on PATH being nova, answering permission requests from `answers` (optionIds). */
async function startEditor(): Promise<Editor> {
  const server = await startProviderServer();
  const home = tempDir("nova-piacp-home-");
  const cwd = tempDir("nova-piacp-cwd-");
  const bin = join(home, "bin");
  mkdirSync(bin);
  symlinkSync(BINARY, join(bin, "pi"));
  const novaHome = join(home, "nova");
  mkdirSync(novaHome);
  writeFileSync(join(novaHome, "config.yml"), JSON.stringify(acpConfig(server)));
  const proc: Subprocess<"pipe", "pipe", "pipe"> = Bun.spawn([Bun.which("node") ?? "node", PI_ACP], {
    cwd,
    env: { PATH: `${bin}:${process.env.PATH ?? ""}`, HOME: home, NOVA_HOME: novaHome, ...(process.env.TMPDIR ? { TMPDIR: process.env.TMPDIR } : {}) },
    stdin: "pipe",
    stdout: "pipe",
    stderr: "pipe",
  });
  const input = stdinStream(proc);
  const answers: string[] = [];
  const client = new TestClient({
    permission: () => ({ outcome: { outcome: "selected", optionId: answers.shift() ?? "no" } }),
  });
  const conn = new ClientSideConnection(() => client, ndJsonStream(input, proc.stdout));
  await conn.initialize({ protocolVersion: 1, clientCapabilities: { fs: { readTextFile: false, writeTextFile: false }, terminal: false } });
  return {
    conn,
    client,
    server,
    cwd,
    answers,
    async close() {
      proc.stdin.end();
      proc.kill();
      await proc.exited;
      await server.close();
    },
  };
}

const say = (e: Editor, sessionId: string, text: string) => e.conn.prompt({ sessionId, prompt: [{ type: "text", text }] });

describe("pi-acp with nova as pi", () => {
  test(
    "a flagged bash command is the editor's permission request: it runs when allowed, not when rejected",
    async () => {
      const e = (open = await startEditor());
      const { sessionId } = await e.conn.newSession({ cwd: e.cwd, mcpServers: [] });
      mkdirSync(join(e.cwd, "allowed"));
      mkdirSync(join(e.cwd, "rejected"));

      e.answers.push("yes");
      e.server.enqueue(f.toolCalls([{ id: "b1", name: "bash", args: { command: "rm -rf allowed && echo removed" } }]), f.text("done"));
      expect((await say(e, sessionId, "clean allowed")).stopReason).toBe("end_turn");
      const asked = e.client.permissionRequests[0]!;
      expect(asked.toolCall.title).toContain("bash");
      expect(JSON.stringify(asked.toolCall.rawInput)).toContain("rm -rf allowed && echo removed");
      expect(existsSync(join(e.cwd, "allowed"))).toBe(false);

      e.answers.push("no");
      e.server.enqueue(f.toolCalls([{ id: "b2", name: "bash", args: { command: "rm -rf rejected" } }]), f.text("ok, not removed"));
      expect((await say(e, sessionId, "clean rejected")).stopReason).toBe("end_turn");
      expect(e.client.permissionRequests).toHaveLength(2);
      expect(JSON.stringify(e.client.permissionRequests[1]!.toolCall.rawInput)).toContain("rm -rf rejected");
      expect(existsSync(join(e.cwd, "rejected"))).toBe(true);
      expect(JSON.stringify(e.server.requests[3]!.body)).toMatch(/denied/i);
    },
    SLOW,
  );

  test(
    "a session restored before and after its first prompt keeps its whole history, and context usage is reported",
    async () => {
      const e = (open = await startEditor());
      const { sessionId } = await e.conn.newSession({ cwd: e.cwd, mcpServers: [] });
      // pi-acp is done with the new session once it has reported its (empty) usage; loading before that races its own setup
      await e.client.waitForUpdate((u) => u.update.sessionUpdate === "usage_update");
      // restored before anything was said: pi-acp respawns pi with --session <the file get_state named>
      await e.conn.loadSession({ sessionId, cwd: e.cwd, mcpServers: [] });
      e.server.enqueue(f.text("first answer"));
      expect((await say(e, sessionId, "first question")).stopReason).toBe("end_turn");
      // pi-acp reads get_session_stats.contextUsage after each turn (and after new/load, when it is still 0)
      const usage = (await e.client.waitForUpdate((u) => u.update.sessionUpdate === "usage_update" && (u.update as { used: number }).used > 0)).update as unknown as {
        used: number;
        size: number;
      };
      expect(usage.size).toBe(100000);
      expect(usage.used).toBeGreaterThan(0);

      const before = e.client.updates.length;
      await e.conn.loadSession({ sessionId, cwd: e.cwd, mcpServers: [] });
      const replay = e.client.updates.slice(before);
      const text = (kind: string) =>
        replay
          .flatMap((u) => {
            const update = u.update as { sessionUpdate: string; content?: { type: string; text?: string } };
            return update.sessionUpdate === kind && update.content?.type === "text" ? [update.content.text ?? ""] : [];
          })
          .join("");
      expect(text("user_message_chunk")).toContain("first question");
      expect(text("agent_message_chunk")).toContain("first answer");

      e.server.enqueue(f.text("second answer"));
      expect((await say(e, sessionId, "second question")).stopReason).toBe("end_turn");
      const messages = e.server.requests.at(-1)!.body.messages as { role: string; content: unknown }[];
      expect(messages.map((m) => m.role)).toEqual(["system", "user", "assistant", "user"]);
      expect(JSON.stringify(messages)).toContain("first question");
      expect(JSON.stringify(messages)).toContain("first answer");
    },
    SLOW,
  );
});
