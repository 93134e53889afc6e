/**
 * Hundreds of commands with random fields, through the real process: each
 * gets exactly one response echoing its id, a failure says which field, and
 * nova stays up. Commands that touch the world (bash, files, login, sessions
 * on disk) are left out: their argument checks are the same validator.
 */
import { expect, test } from "bun:test";
import { startNova } from "../support/nova.ts";
import { commandTypes } from "../../src/rpc/commands.ts";

const untouched = new Set(["bash", "login", "export_html", "switch_session", "handoff", "compact", "set_host_uri_schemes", "abort_and_prompt"]);

let seed = 12345;
const random = () => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff;
const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;

const fields = [
  "message",
  "mode",
  "level",
  "provider",
  "modelId",
  "images",
  "enabled",
  "name",
  "entryId",
  "phases",
  "tools",
  "requestId",
  "approved",
  "streamingBehavior",
  "sessionId",
  "parentSession",
  "background",
  "agentId",
  "fromByte",
  "customInstructions",
];

function value(depth = 0): unknown {
  const kinds = depth > 1 ? ["string", "number", "bool", "null"] : ["string", "number", "bool", "null", "array", "object", "unicode"];
  switch (pick(kinds)) {
    case "string":
      return pick(["", "all", "one-at-a-time", "wait", "high", "off", "test", "m1", "x".repeat(Math.floor(random() * 40))]);
    case "unicode":
      return "ß☃\u2028\u2029日本\u0000";
    case "number":
      return pick([0, -1, 1.5, 42, 1e308, Number.MAX_SAFE_INTEGER]);
    case "bool":
      return random() < 0.5;
    case "null":
      return null;
    case "array":
      return Array.from({ length: Math.floor(random() * 3) }, () => value(depth + 1));
    default:
      return Object.fromEntries(Array.from({ length: Math.floor(random() * 3) }, () => [pick(fields), value(depth + 1)]));
  }
}

test("random commands each get exactly one response with their id, and nova stays up", async () => {
  const nova = await startNova({ args: ["--no-session"] });
  try {
    const types = commandTypes.filter((t) => !untouched.has(t));
    const count = 400;
    for (let i = 0; i < count; i++) {
      const frame: Record<string, unknown> = { id: `f${i}`, type: pick(types) };
      for (let k = Math.floor(random() * 4); k > 0; k--) frame[pick(fields)] = value();
      nova.send(frame);
    }
    await nova.waitFor((f) => f.id === `f${count - 1}`);
    // a prompt may have started a run (no model: it fails at once); let it end
    await nova.request({ type: "abort" });
    const responses = nova.frames.filter((f) => f.type === "response" && typeof f.id === "string" && f.id.startsWith("f"));
    const ids = responses.map((f) => f.id);
    expect(new Set(ids).size).toBe(count);
    expect(ids.length).toBe(count);
    for (const failure of responses.filter((f) => !f.success)) {
      expect(typeof failure.error).toBe("string");
      expect(failure.error.length).toBeGreaterThan(0);
      // a handler that crashed would surface the runtime's words, not ours
      expect(failure.error).not.toMatch(/is not a function|Cannot read propert|undefined is not an object|is not defined|Maximum call stack/);
    }
    expect(responses.filter((f) => !f.success).length).toBeGreaterThan(count / 4);
    expect((await nova.request({ type: "get_state" })).success).toBe(true);
    expect(nova.stderr).not.toContain("fatal");
    nova.closeStdin();
    expect(await nova.exited).toBe(0);
  } finally {
    await nova.stop();
  }
});
