/**
 * A scripted LLM provider on 127.0.0.1 for tests at every level.
 *
 *   const server = await startProviderServer();
 *   server.enqueue(fixtures.anthropic.text("hi"), fixtures.httpError(429, "slow down", { "retry-after": "0" }));
 *   // point a model's baseUrl at server.url (+ "/v1" or any prefix: paths are recorded, not routed)
 *   await server.waitForRequests(2);
 *   server.requests[0].body.messages  // what the provider sent, JSON-parsed
 *   await server.close();
 *
 * Every request, whatever its path, takes the next `Scripted` from the queue.
 * Its chunks are written one by one, each flushed separately and byte for
 * byte; then the response closes, the connection drops (`end: "drop"`), or
 * the server goes silent without closing (`end: "stall"`). With the queue
 * empty the answer is a 500 whose body says the script ran out, so a test
 * that sends one request too many fails with a clear message.
 */

export interface Scripted {
  /** default 200 */
  status?: number;
  /** e.g. {"retry-after": "0"}; content-type defaults by body kind (JSON error, NDJSON, or SSE) */
  headers?: Record<string, string>;
  /** written one by one, each flushed separately, byte for byte */
  chunks: (string | Uint8Array)[];
  /** default close; drop = abort the connection after the chunks; stall = keep open, send nothing more */
  end?: "close" | "drop" | "stall";
}

export interface RecordedRequest {
  method: string;
  /** path and query, e.g. "/v1/models/gemini:streamGenerateContent?alt=sse" */
  path: string;
  /** lower-case names */
  headers: Record<string, string>;
  /** JSON-parsed when it parses, else the raw text */
  body: any;
}

export interface ProviderServer {
  /** "http://127.0.0.1:PORT", no trailing slash */
  url: string;
  enqueue(...responses: Scripted[]): void;
  requests: RecordedRequest[];
  /** resolves once at least `n` requests have arrived */
  waitForRequests(n: number): Promise<void>;
  /** stops the server and cuts every open connection, stalled ones included */
  close(): Promise<void>;
}

const encoder = new TextEncoder();

export async function startProviderServer(): Promise<ProviderServer> {
  const queue: Scripted[] = [];
  const requests: RecordedRequest[] = [];
  const waiters: { n: number; resolve: () => void }[] = [];
  const stalled = new Set<() => void>();

  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    // a dropped connection is scripted; keep Bun from logging it as a server error
    error: () => new Response("provider-server: internal error", { status: 500 }),
    async fetch(req) {
      const url = new URL(req.url);
      const text = await req.text();
      requests.push({ method: req.method, path: url.pathname + url.search, headers: Object.fromEntries(req.headers), body: parseBody(text) });
      for (const waiter of waiters.filter((w) => requests.length >= w.n)) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve();
      }
      const script = queue.shift();
      if (!script) {
        const message = `provider-server: the script ran out: no scripted response left for ${req.method} ${url.pathname} (request #${requests.length})`;
        return Response.json({ error: { message, type: "script_exhausted" } }, { status: 500 });
      }
      return respond(script, stalled);
    },
  });

  return {
    url: `http://127.0.0.1:${server.port}`,
    requests,
    enqueue: (...responses) => queue.push(...responses),
    waitForRequests: (n) => (requests.length >= n ? Promise.resolve() : new Promise<void>((resolve) => waiters.push({ n, resolve }))),
    close: async () => {
      for (const release of stalled) release();
      await server.stop(true);
    },
  };
}

function parseBody(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** The scripted answer, chunk by chunk; a stalled one registers its release in `stalled`. */
export function respond(script: Scripted, stalled: Set<() => void>): Response {
  const chunks = script.chunks.map((c) => (typeof c === "string" ? encoder.encode(c) : c));
  let next = 0;
  let release: (() => void) | undefined;
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (next < chunks.length) {
        controller.enqueue(chunks[next++]);
        // yield to the event loop so each chunk leaves as its own write
        await new Promise((resolve) => setTimeout(resolve, 0));
        return;
      }
      if (script.end === "drop") {
        // the connection breaks after what was sent has left: erroring at once can discard the last chunk unsent
        await new Promise((resolve) => setTimeout(resolve, 50));
        return controller.error();
      }
      if (script.end === "stall") {
        await new Promise<void>((resolve) => {
          release = () => {
            if (release) stalled.delete(release);
            resolve();
          };
          stalled.add(release);
        });
      }
      controller.close();
    },
    cancel() {
      release?.();
    },
  });
  const headers = new Headers(script.headers);
  if (!headers.has("content-type")) headers.set("content-type", defaultContentType(script.status ?? 200, chunks));
  return new Response(body, { status: script.status ?? 200, headers });
}

function defaultContentType(status: number, chunks: Uint8Array[]): string {
  if (status >= 400) return "application/json";
  return chunks[0]?.[0] === 0x7b /* "{" */ ? "application/x-ndjson" : "text/event-stream";
}
