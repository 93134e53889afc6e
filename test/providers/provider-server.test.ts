import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { fixtures } from "../support/fixtures/index.ts";
import { type ProviderServer, startProviderServer } from "../support/provider-server.ts";

describe("provider-server", () => {
  let server: ProviderServer;
  beforeAll(async () => {
    server = await startProviderServer();
  });
  afterAll(() => server.close());

  test("answers in order, recording each request", async () => {
    server.enqueue({ chunks: ["one"] }, { status: 201, headers: { "x-a": "b" }, chunks: ["t", "wo"] });
    const first = await fetch(`${server.url}/v1/a?q=1`, { method: "POST", headers: { "x-key": "k" }, body: '{"n":1}' });
    const second = await fetch(`${server.url}/b`, { method: "POST", body: "not json" });
    expect([first.status, await first.text(), second.status, second.headers.get("x-a"), await second.text()]).toEqual([200, "one", 201, "b", "two"]);
    await server.waitForRequests(2);
    expect(server.requests.slice(-2).map((r) => [r.method, r.path, r.body])).toEqual([
      ["POST", "/v1/a?q=1", { n: 1 }],
      ["POST", "/b", "not json"],
    ]);
    expect(server.requests.at(-2)?.headers["x-key"]).toBe("k");
  });

  test("says clearly when the script ran out", async () => {
    const res = await fetch(`${server.url}/v1/messages`, { method: "POST", body: "{}" });
    expect(res.status).toBe(500);
    expect(await res.text()).toContain("the script ran out: no scripted response left for POST /v1/messages");
  });

  test("chunks are written separately and byte for byte", async () => {
    server.enqueue(fixtures.rechunk({ chunks: ["abcdefghij"] }, 3));
    const reader = (await fetch(server.url, { method: "POST" })).body!.getReader();
    const reads: string[] = [];
    for (let r = await reader.read(); !r.done; r = await reader.read()) reads.push(new TextDecoder().decode(r.value));
    expect(reads.join("")).toBe("abcdefghij");
    // separate writes reach the client as separate reads unless the machine is very busy
    expect(reads.length).toBeGreaterThan(1);
  });

  test("drop cuts the connection after the chunks", async () => {
    server.enqueue({ chunks: ["partial"], end: "drop" });
    const reader = (await fetch(server.url, { method: "POST" })).body!.getReader();
    expect(new TextDecoder().decode((await reader.read()).value)).toBe("partial");
    await expect(reader.read()).rejects.toThrow();
  });

  test("content type follows the body kind", async () => {
    server.enqueue({ chunks: ["data: x\n\n"] }, { chunks: ['{"a":1}\n'] }, fixtures.httpError(400, { error: "no" }));
    const types = [];
    for (let i = 0; i < 3; i++) {
      const res = await fetch(server.url, { method: "POST" });
      types.push(res.headers.get("content-type"));
      await res.text();
    }
    expect(types).toEqual(["text/event-stream", "application/x-ndjson", "application/json"]);
  });

  test("close ends a stalled response", async () => {
    const other = await startProviderServer();
    other.enqueue({ chunks: ["begin"], end: "stall" });
    const reader = (await fetch(other.url, { method: "POST" })).body!.getReader();
    await reader.read();
    const pending = reader.read().then(
      (r) => (r.done ? "ended" : "data"),
      () => "ended",
    );
    await other.close();
    expect(await pending).toBe("ended");
  });
});
