/**
 * Failures a user can fix, through the real process: the message names the
 * URL and the cause, and what no retry can fix is not retried.
 */
import { describe, expect, test } from "bun:test";
import { fixtures } from "../support/fixtures/index.ts";
import { startNova } from "../support/nova.ts";
import { promptAndSettle, scenarios, testConfig } from "../support/scenario.ts";

const open = scenarios();

describe("network failures", () => {
  test("a refused connection fails at once and names the URL", async () => {
    const config = testConfig("http://127.0.0.1:1");
    const nova = await startNova({ args: ["--no-session"], config });
    try {
      const frames = await promptAndSettle(nova, "hi");
      expect(frames.filter((f) => f.type.startsWith("auto_retry"))).toEqual([]);
      const end = frames.find((f) => f.type === "agent_end");
      const last = end?.messages.at(-1);
      expect(last).toMatchObject({ role: "assistant", stopReason: "error" });
      expect(last.errorMessage).toBe("cannot connect to http://127.0.0.1:1/v1/chat/completions: connection refused");
    } finally {
      await nova.stop();
    }
  });
});

describe("HTTP errors", () => {
  test("a 401 whose body says server_error is not retried", async () => {
    const s = await open();
    s.server.enqueue(fixtures.httpError(401, { error: { message: "invalid key", type: "server_error" } }));
    const frames = await promptAndSettle(s.nova, "hi");
    expect(frames.filter((f) => f.type.startsWith("auto_retry"))).toEqual([]);
    expect(s.server.requests).toHaveLength(1);
    const end = frames.find((f) => f.type === "agent_end");
    expect(end?.messages.at(-1).errorMessage).toBe("HTTP 401: invalid key");
  });

  test.each([408, 409, 429, 503])("%d is retried", async (status) => {
    const s = await open();
    s.server.enqueue(fixtures.httpError(status, { error: { message: "busy" } }, { "retry-after": "0" }), s.f.text("ok"));
    const frames = await promptAndSettle(s.nova, "hi");
    expect(frames.filter((f) => f.type === "auto_retry_start")).toHaveLength(1);
    expect(s.server.requests).toHaveLength(2);
  });
});
