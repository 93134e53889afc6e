/**
 * The loop in-process, through its seam: a fake provider that plays scripted
 * turns, an array for the context, and hooks that record what they were asked.
 * No timers: the backoff sleep is injected.
 */
import { describe, expect, test } from "bun:test";
import { runLoop, type LoopHooks, type LoopSeam } from "../../src/agent/loop.ts";
import type { AgentEvent } from "../../src/agent/events.ts";
import type { AgentMessage, UserMessage } from "../../src/core/messages.ts";
import { userMessage } from "../../src/agent/queues.ts";
import type { Provider, ProviderEvent, ProviderRequest } from "../../src/providers/types.ts";
import type { Tool } from "../../src/tools/types.ts";
import { testModel, testRequest } from "../providers/helpers.ts";

type Turn = ProviderEvent[] | ((signal: AbortSignal) => AsyncIterable<ProviderEvent>);

/** Plays one scripted turn per request and keeps the messages each request was sent. */
function fakeProvider(turns: Turn[]): Provider & { sent: AgentMessage[][] } {
  const sent: AgentMessage[][] = [];
  return {
    api: "openai-chat",
    sent,
    async *stream(request: ProviderRequest, signal: AbortSignal) {
      sent.push([...request.messages]);
      const turn = turns.shift() ?? [{ type: "error", error: { message: "no turn scripted", retryable: false } }];
      yield* typeof turn === "function" ? turn(signal) : turn;
    },
  };
}

const text = (t: string): ProviderEvent[] => [
  { type: "text_delta", index: 0, delta: t },
  { type: "stop", reason: "stop" },
];
const calls = (...names: string[]): ProviderEvent[] => [
  ...names.flatMap((name, index): ProviderEvent[] => [
    { type: "toolcall_start", index, id: `call_${index}`, name },
    { type: "toolcall_delta", index, delta: "{}" },
  ]),
  { type: "stop", reason: "toolUse" },
];
const failure = (extra: { retryable?: boolean; contextOverflow?: boolean } = {}): ProviderEvent[] => [
  { type: "error", error: { message: "HTTP 500: boom", retryable: extra.retryable ?? true, ...extra } },
];

function tool(name: string, run: (signal: AbortSignal) => Promise<string> | string = () => `${name} ran`): Tool {
  return {
    name,
    description: name,
    parameters: { type: "object" },
    execute: async (_args, ctx) => ({ content: [{ type: "text", text: await run(ctx.signal) }] }),
  };
}

function harness(provider: Provider, options: { tools?: Tool[]; hooks?: LoopHooks; emit?: LoopSeam["emit"] } = {}) {
  const context: AgentMessage[] = [];
  const events: AgentEvent[] = [];
  const seam: LoopSeam = {
    emit: (event) => {
      events.push(event);
      return options.emit?.(event);
    },
    messages: () => context,
    request: async () => ({ provider, request: testRequest(testModel(), { messages: [...context] }), tools: options.tools ?? [] }),
    append: (message) => context.push(message),
    tools: { cwd: "/", hasUI: false },
    hooks: options.hooks,
  };
  const run = (prompt = "go", signal = new AbortController().signal) => runLoop(seam, [userMessage(prompt, [])], signal);
  return { context, events, run, types: () => events.map((e) => e.type) };
}

const texts = (messages: AgentMessage[]) =>
  messages.map((m) =>
    m.role === "user"
      ? `user:${typeof m.content === "string" ? m.content : ""}`
      : m.role === "assistant"
        ? `assistant:${m.stopReason}`
        : `${m.role}:${m.role === "toolResult" ? (m.content[0] as { text: string }).text : ""}`,
  );

describe("agent loop", () => {
  test("one text turn: message_start/end once per message, agent_end last", async () => {
    const h = harness(fakeProvider([text("hi")]));
    await h.run();
    expect(h.types().filter((t) => t !== "message_update")).toEqual([
      "agent_start",
      "turn_start",
      "message_start",
      "message_end",
      "message_start",
      "message_end",
      "turn_end",
      "agent_end",
    ]);
    expect(texts(h.context)).toEqual(["user:go", "assistant:stop"]);
  });

  test("a steer queued during a tool skips the rest of the batch and is sent next", async () => {
    const queue: UserMessage[] = [];
    const provider = fakeProvider([calls("first", "second"), text("done")]);
    const first = tool("first", () => {
      queue.push(userMessage("change course", []));
      return "first ran";
    });
    const h = harness(provider, {
      tools: [first, tool("second")],
      hooks: { interrupts: () => queue.length > 0, steering: () => queue.splice(0) },
    });
    await h.run();
    expect(texts(h.context)).toEqual([
      "user:go",
      "assistant:toolUse",
      "toolResult:first ran",
      "toolResult:Skipped due to queued user message.",
      "user:change course",
      "assistant:stop",
    ]);
    expect(texts(provider.sent[1]!).at(-1)).toBe("user:change course");
  });

  test("without interrupts the whole batch runs before the steer", async () => {
    const queue: UserMessage[] = [];
    const first = tool("first", () => (queue.push(userMessage("later", [])), "first ran"));
    const h = harness(fakeProvider([calls("first", "second"), text("done")]), {
      tools: [first, tool("second")],
      hooks: { interrupts: () => false, steering: () => queue.splice(0) },
    });
    await h.run();
    expect(texts(h.context)).toEqual(["user:go", "assistant:toolUse", "toolResult:first ran", "toolResult:second ran", "user:later", "assistant:stop"]);
  });

  test("follow-ups continue the run when it would stop, one turn each", async () => {
    const followUps = [userMessage("and then?", [])];
    const h = harness(fakeProvider([text("one"), text("two")]), { hooks: { followUp: () => followUps.splice(0, 1) } });
    await h.run();
    expect(texts(h.context)).toEqual(["user:go", "assistant:stop", "user:and then?", "assistant:stop"]);
    expect(h.types().filter((t) => t === "agent_end")).toHaveLength(1);
    expect(h.types().filter((t) => t === "turn_start")).toHaveLength(2);
  });

  test("retry backs off exponentially through the injected sleep, then succeeds", async () => {
    const waits: number[] = [];
    const h = harness(fakeProvider([failure(), failure(), text("finally")]), {
      hooks: { retry: () => ({ maxRetries: 3, baseDelayMs: 100, maxDelayMs: 10_000 }), sleep: async (ms) => (waits.push(ms), true) },
    });
    await h.run();
    expect(waits).toEqual([100, 200]);
    expect(h.events.filter((e) => e.type === "auto_retry_start").map((e) => e.type === "auto_retry_start" && e.attempt)).toEqual([1, 2]);
    expect(h.events.find((e) => e.type === "auto_retry_end")).toMatchObject({ success: true, attempt: 2 });
    // failed attempts never reached the host or the context
    expect(texts(h.context)).toEqual(["user:go", "assistant:stop"]);
    expect(h.types().filter((t) => t === "message_start")).toHaveLength(2);
  });

  test("retries stop at maxRetries with the last error; non-retryable errors are not retried", async () => {
    const waits: number[] = [];
    const hooks: LoopHooks = { retry: () => ({ maxRetries: 1, baseDelayMs: 50, maxDelayMs: 50 }), sleep: async (ms) => (waits.push(ms), true) };
    const h = harness(fakeProvider([failure(), failure()]), { hooks });
    await h.run();
    expect(waits).toEqual([50]);
    expect(h.events.find((e) => e.type === "auto_retry_end")).toMatchObject({ success: false, attempt: 1, finalError: "HTTP 500: boom" });
    expect(texts(h.context)).toEqual(["user:go", "assistant:error"]);

    const once = harness(fakeProvider([failure({ retryable: false })]), { hooks });
    await once.run();
    expect(once.types()).not.toContain("auto_retry_start");
  });

  test("context overflow compacts and retries once; a second overflow is the answer", async () => {
    let compactions = 0;
    const hooks: LoopHooks = { onContextOverflow: async () => (compactions++, true) };
    const ok = harness(fakeProvider([failure({ retryable: false, contextOverflow: true }), text("fits now")]), { hooks });
    await ok.run();
    expect(compactions).toBe(1);
    expect(texts(ok.context)).toEqual(["user:go", "assistant:stop"]);

    compactions = 0;
    const twice = harness(fakeProvider([failure({ retryable: false, contextOverflow: true }), failure({ retryable: false, contextOverflow: true })]), { hooks });
    await twice.run();
    expect(compactions).toBe(1);
    expect(texts(twice.context)).toEqual(["user:go", "assistant:error"]);
  });

  test("redact scrubs provider error text before it reaches events and the context", async () => {
    const h = harness(fakeProvider([[{ type: "error", error: { message: "bad key sk-secret", retryable: false } }]]), {
      hooks: { redact: (t) => t.replaceAll("sk-secret", "[redacted]") },
    });
    await h.run();
    expect(JSON.stringify(h.events)).not.toContain("sk-secret");
    expect(h.context.at(-1)).toMatchObject({ stopReason: "error", errorMessage: "bad key [redacted]" });
  });

  test("no model: the reason becomes an error message and the run ends", async () => {
    const context: AgentMessage[] = [];
    const events: AgentEvent[] = [];
    await runLoop(
      { emit: (e) => void events.push(e), messages: () => context, request: async () => "No model configured", append: (m) => context.push(m), tools: { cwd: "/", hasUI: false } },
      [userMessage("go", [])],
      new AbortController().signal,
    );
    expect(context.at(-1)).toMatchObject({ role: "assistant", stopReason: "error", errorMessage: "No model configured" });
    expect(events.at(-1)?.type).toBe("agent_end");
  });

  test("a full consumer holds the stream: the next provider event waits for emit's promise", async () => {
    let release: () => void = () => {};
    let pulled = 0;
    let full = true;
    const provider = fakeProvider([
      async function* () {
        pulled++;
        yield { type: "text_delta", index: 0, delta: "a" };
        pulled++;
        yield { type: "text_delta", index: 0, delta: "b" };
        yield { type: "stop", reason: "stop" };
      },
    ]);
    let held: () => void = () => {};
    const holding = new Promise<void>((resolve) => (held = resolve));
    const h = harness(provider, {
      emit: (event) => {
        if (!full || event.type !== "message_update") return undefined;
        held();
        return new Promise<void>((resolve) => (release = resolve));
      },
    });
    const done = h.run();
    await holding;
    // a whole macrotask: every microtask the loop could run has run
    await new Promise((resolve) => setImmediate(resolve));
    expect(pulled).toBe(1);
    full = false;
    release();
    await done;
    expect(pulled).toBe(2);
    expect(h.events.at(-1)?.type).toBe("agent_end");
  });

  test("agent_end comes even when the owner's request function throws", async () => {
    const context: AgentMessage[] = [];
    const events: AgentEvent[] = [];
    const original = process.stderr.write;
    process.stderr.write = (() => true) as typeof process.stderr.write;
    try {
      await runLoop(
        {
          emit: (e) => void events.push(e),
          messages: () => context,
          request: () => Promise.reject(new Error("broken")),
          append: (m) => context.push(m),
          tools: { cwd: "/", hasUI: false },
        },
        [userMessage("go", [])],
        new AbortController().signal,
      );
    } finally {
      process.stderr.write = original;
    }
    expect(events.map((e) => e.type)).toEqual(["agent_start", "turn_start", "message_start", "message_end", "agent_end"]);
  });
});

describe("abort at every await point ends the run with one agent_end", () => {
  /** Each case aborts while the loop waits at one place, and says what the context must end with. */
  const cases: { at: string; setup: (abort: () => void) => { provider: Provider; tools?: Tool[]; hooks?: LoopHooks; emit?: LoopSeam["emit"] }; last: string }[] = [
    {
      at: "beforeRequest",
      setup: (abort) => ({ provider: fakeProvider([text("never")]), hooks: { beforeRequest: async () => abort() } }),
      last: "assistant:aborted",
    },
    {
      at: "the provider stream, mid-message",
      setup: (abort) => ({
        provider: fakeProvider([
          async function* (signal) {
            yield { type: "text_delta", index: 0, delta: "part" };
            abort();
            if (signal.aborted) yield { type: "error", error: { message: "Request was aborted", retryable: false } };
          },
        ]),
      }),
      last: "assistant:aborted",
    },
    {
      at: "a full consumer",
      setup: (abort) => ({
        provider: fakeProvider([text("held")]),
        emit: (event) => (event.type === "message_update" ? (abort(), Promise.resolve()) : undefined),
      }),
      last: "assistant:aborted",
    },
    {
      at: "a running tool",
      setup: (abort) => ({
        provider: fakeProvider([calls("slow", "next"), text("never")]),
        tools: [tool("slow", (signal) => (abort(), signal.aborted ? "stopped" : "ran")), tool("next")],
      }),
      last: "toolResult:Tool call was not run: the turn was aborted.",
    },
    {
      at: "the retry backoff",
      setup: (abort) => ({
        provider: fakeProvider([failure(), text("never")]),
        hooks: { retry: () => ({ maxRetries: 3, baseDelayMs: 10, maxDelayMs: 10 }), sleep: async () => (abort(), false) },
      }),
      last: "assistant:aborted",
    },
    {
      at: "the overflow compaction",
      setup: (abort) => ({
        provider: fakeProvider([failure({ retryable: false, contextOverflow: true }), text("never")]),
        hooks: { onContextOverflow: async () => (abort(), false) },
      }),
      last: "assistant:error",
    },
  ];

  for (const c of cases) {
    test(c.at, async () => {
      const controller = new AbortController();
      const { provider, ...options } = c.setup(() => controller.abort());
      const h = harness(provider, options);
      await h.run("go", controller.signal);
      expect(h.types().filter((t) => t === "agent_end")).toHaveLength(1);
      expect(h.types().at(-1)).toBe("agent_end");
      expect(texts(h.context).at(-1)).toBe(c.last);
      expect(h.types().filter((t) => t === "turn_start")).toHaveLength(1);
    });
  }
});
