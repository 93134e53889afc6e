/**
 * The scripted model server of `bench:peers`: one queue of provider-neutral
 * turns, each answered in the wire format of whoever asks for it, told apart
 * by the request's path: OpenAI chat completions (nova, Pi, oh-my-pi,
 * opencode), the OpenAI Responses API (Codex), Anthropic Messages (Claude
 * Code) and Gemini's `streamGenerateContent?alt=sse` (Gemini CLI). The bytes
 * come from the test fixtures, the same ones the providers are tested with.
 *
 * Only a streamed request that offers tools (the agent's turn) takes the next
 * scripted turn. The peers also ask on the side (a session title, a token
 * count, a model list, a quota probe): those get a short answer of their own
 * and leave the script alone, so every agent sees the same turns.
 */
import { fixtures } from "../../test/support/fixtures/index.ts";
import type { FixturePart, TurnOptions } from "../../test/support/fixtures/turn.ts";
import { respond, type Scripted } from "../../test/support/provider-server.ts";
import { cutAfter } from "../../test/support/scenario.ts";

export interface Turn {
  parts: FixturePart[];
  options?: TurnOptions;
  /** the answer stops after the chunk holding this text and the connection stays open, sending nothing */
  stallAfter?: string;
}

export type Wire = "openai-chat" | "openai-responses" | "anthropic" | "google";

export interface Asked {
  method: string;
  path: string;
  wire: Wire | "other";
  /** took a scripted turn */
  scripted: boolean;
  body: any;
}

export interface BenchProvider {
  url: string;
  enqueue(...turns: Turn[]): void;
  asked: Asked[];
  close(): Promise<void>;
}

export const turns = {
  text: (text: string, options?: TurnOptions): Turn => ({ parts: [{ text }], options }),
  toolCalls: (calls: { id: string; name: string; args: Record<string, unknown> }[], options?: TurnOptions): Turn => ({
    parts: calls.map((toolCall) => ({ toolCall })),
    options,
  }),
};

const encoders = {
  "openai-chat": fixtures.openaiChat.turn,
  "openai-responses": fixtures.openaiResponses.turn,
  anthropic: fixtures.anthropic.turn,
  google: fixtures.google.turn,
} satisfies Record<Wire, (parts: FixturePart[], options?: TurnOptions) => Scripted>;

function wireOf(path: string): Wire | "other" {
  if (path.endsWith("/chat/completions")) return "openai-chat";
  if (path.endsWith("/responses")) return "openai-responses";
  if (path.endsWith("/messages")) return "anthropic";
  if (path.includes(":streamGenerateContent")) return "google";
  return "other";
}

/** The agent's own turn: streamed, with tools on offer. */
function isTurn(wire: Wire, body: any): boolean {
  const tools = body?.tools;
  if (!Array.isArray(tools) || tools.length === 0) return false;
  return wire === "google" || body.stream === true;
}

export async function startBenchProvider(): Promise<BenchProvider> {
  const queue: Turn[] = [];
  const asked: Asked[] = [];
  const stalled = new Set<() => void>();
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    idleTimeout: 0,
    error: () => new Response("bench provider: internal error", { status: 500 }),
    async fetch(req) {
      const url = new URL(req.url);
      const path = url.pathname + url.search;
      const text = req.method === "GET" ? "" : await req.text();
      const body = parse(text);
      const wire = wireOf(url.pathname);
      const scripted = wire !== "other" && isTurn(wire, body);
      asked.push({ method: req.method, path, wire, scripted, body });
      if (wire === "other") return other(url.pathname);
      if (!scripted) return respond(encoders[wire]([{ text: sideAnswer(body) }]), stalled);
      const turn = queue.shift();
      if (!turn) return Response.json({ error: { message: `bench provider: the script ran out (${req.method} ${path})`, type: "script_exhausted" } }, { status: 500 });
      const scriptedTurn = encoders[wire](turn.parts, turn.options);
      return respond(turn.stallAfter ? cutAfter(scriptedTurn, turn.stallAfter, "stall") : scriptedTurn, stalled);
    },
  });
  return {
    url: `http://127.0.0.1:${server.port}`,
    asked,
    enqueue: (...more) => queue.push(...more),
    close: async () => {
      for (const release of stalled) release();
      await server.stop(true);
    },
  };
}

/** A side question's answer; Gemini CLI's next-speaker check wants JSON back. */
function sideAnswer(body: any): string {
  return JSON.stringify(body).includes("next_speaker") ? '{"reasoning":"done","next_speaker":"user"}' : "ok";
}

/** Model lists, token counts and the like. */
function other(path: string): Response {
  if (path.endsWith("/count_tokens")) return Response.json({ input_tokens: 10 });
  if (path.endsWith(":countTokens")) return Response.json({ totalTokens: 10 });
  if (path.endsWith("/models")) return Response.json({ object: "list", data: [{ id: "m", object: "model", created: 0, owned_by: "bench" }], models: [] });
  return Response.json({ error: { message: `bench provider: nothing here (${path})` } }, { status: 404 });
}

function parse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
