/**
 * Every provider read has a deadline and a size cap, through the real
 * process: an error status with a stalled body ends the turn, a line without
 * LF and a huge error body end it with a clear error, and nova's peak RSS
 * stays under 100 MiB while the server sends gigabytes it never holds itself.
 */
import { afterEach, expect, test } from "bun:test";
import { startNova, tempDir, type Nova } from "../support/nova.ts";
import { BINARY, requireBinary } from "../support/targets.ts";
import { promptAndSettle, testConfig } from "../support/scenario.ts";
import { MiB, peakRss } from "../support/memory.ts";

const GiB = 1024 * MiB;

let nova: Nova | undefined;
let server: ReturnType<typeof Bun.serve> | undefined;
afterEach(async () => {
  await nova?.stop();
  server?.stop(true);
  nova = server = undefined;
});

/** A body of `total` bytes made chunk by chunk as it is read (nothing is held), after `head`; `stall` keeps it open after the head. */
function endless(head: string, total: number, fill: number, stall = false): ReadableStream<Uint8Array> {
  const chunk = new Uint8Array(64 * 1024).fill(fill);
  let sent = 0;
  let headSent = false;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (!headSent) {
        headSent = true;
        return controller.enqueue(new TextEncoder().encode(head));
      }
      if (stall) return new Promise<void>(() => {});
      if (sent >= total) return controller.close();
      const n = Math.min(chunk.length, total - sent);
      sent += n;
      controller.enqueue(n === chunk.length ? chunk : chunk.subarray(0, n));
    },
  });
}

async function start(respond: () => Response, extra: Record<string, unknown> = {}, api: "openai-chat" | "ollama" = "openai-chat") {
  server = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: async (req) => (await req.text(), respond()) });
  const config = testConfig(`http://127.0.0.1:${server.port}`, { api, extra: { retry: { enabled: false }, ...extra } });
  // the compiled executable, as users run it: its memory is what the limit is about (from source, Bun's transpiler adds its own)
  requireBinary();
  nova = await startNova({ binary: BINARY, args: ["--no-session"], cwd: tempDir(), config });
  return nova;
}

function finalError(frames: Record<string, any>[]): string {
  const end = frames.find((f) => f.type === "agent_end");
  expect(end).toBeDefined();
  return end!.messages.at(-1).errorMessage;
}

test("an error status whose body then stalls ends the turn at the idle timeout", async () => {
  const n = await start(() => new Response(endless('{"error":{"message":"overloa', 0, 0, true), { status: 500, headers: { "content-type": "application/json" } }), {
    stream: { idleTimeoutMs: 300 },
  });
  const frames = await promptAndSettle(n, "hi");
  expect(finalError(frames)).toMatch(/^HTTP 500: .*\(the error body stalled\)$/);
});

test("a 2 GiB SSE line without LF ends the turn at stream.maxLineBytes, and nova stays under 100 MiB", async () => {
  const n = await start(() => new Response(endless("data: ", 2 * GiB, 0x61), { headers: { "content-type": "text/event-stream" } }));
  const frames = await promptAndSettle(n, "hi");
  expect(finalError(frames)).toBe("the provider sent a line longer than 16 MiB (stream.maxLineBytes); the response was abandoned");
  expect(peakRss(n.pid)).toBeLessThan(100 * MiB);
});

test("a smaller stream.maxLineBytes applies to NDJSON lines (Ollama) too", async () => {
  const n = await start(
    () => new Response(endless('{"message":"', 8 * MiB, 0x61), { headers: { "content-type": "application/x-ndjson" } }),
    { stream: { maxLineBytes: 1024 * 1024 } },
    "ollama",
  );
  const frames = await promptAndSettle(n, "hi");
  expect(finalError(frames)).toContain("longer than 1 MiB (stream.maxLineBytes)");
});

test("a 1 GiB error body: 1 MiB of it is kept, the turn ends with the error, nova stays under 100 MiB", async () => {
  const n = await start(() => new Response(endless("upstream exploded: ", GiB, 0x7a), { status: 502, headers: { "content-type": "text/plain" } }));
  const frames = await promptAndSettle(n, "hi");
  const message = finalError(frames);
  expect(message).toStartWith("HTTP 502: upstream exploded: zzz");
  expect(message).toEndWith("(error body cut at 1 MiB)");
  expect(peakRss(n.pid)).toBeLessThan(100 * MiB);
});
