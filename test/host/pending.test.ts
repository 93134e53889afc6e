import { describe, expect, test } from "bun:test";
import { HostGone, PendingTable, prefixedIds, requestSpec } from "../../src/host/pending.ts";

describe("PendingTable", () => {
  test("a reply settles the request with its id; an unknown id settles nothing", async () => {
    const table = new PendingTable<string, string>(prefixedIds("ui"));
    const sent: string[] = [];
    const answer = table.open((id) => sent.push(id));
    expect(sent).toEqual(["ui_1"]);
    expect(table.settle("ui_9", "no")).toBe(false);
    expect(table.settle("ui_1", "yes")).toBe(true);
    expect(await answer).toBe("yes");
    expect(table.size).toBe(0);
  });

  test("fail rejects with the other side's error; update reaches onUpdate", async () => {
    const table = new PendingTable<number, unknown>(() => 7);
    const updates: unknown[] = [];
    const answer = table.open(() => {}, { onUpdate: (u) => updates.push(u) });
    expect(table.update(7, "half")).toBe(true);
    table.fail(7, new Error("refused"));
    await expect(answer).rejects.toThrow("refused");
    expect(updates).toEqual(["half"]);
  });

  test("an abort rejects, tells cancel the id and forgets the request", async () => {
    const table = new PendingTable<string, string>(prefixedIds("host"));
    const controller = new AbortController();
    const cancelled: string[] = [];
    const answer = table.open(() => {}, { signal: controller.signal, cancel: (id) => cancelled.push(id) });
    controller.abort();
    await expect(answer).rejects.toThrow("aborted");
    expect(cancelled).toEqual(["host_1"]);
    expect(table.settle("host_1", "late")).toBe(false);
  });

  test("settleAll answers everything pending and later requests still open", async () => {
    const table = new PendingTable<string, boolean>(prefixedIds("p"));
    const a = table.open(() => {});
    const b = table.open(() => {});
    table.settleAll(false);
    expect(await Promise.all([a, b])).toEqual([false, false]);
    const c = table.open(() => {});
    table.settle("p_3", true);
    expect(await c).toBe(true);
  });

  test("close fails everything pending and everything new, without sending", async () => {
    const table = new PendingTable<string, string>(prefixedIds("uri"));
    const pending = table.open(() => {});
    table.close(() => new HostGone("stdin closed"));
    await expect(pending).rejects.toBeInstanceOf(HostGone);
    let sent = false;
    await expect(table.open(() => (sent = true))).rejects.toThrow("stdin closed");
    expect(sent).toBe(false);
  });
});

test("requestSpec keeps the method and the reply check", () => {
  const spec = requestSpec<{ q: string }, number>("ask", (value) => {
    if (typeof value !== "number") throw new Error("not a number");
    return value;
  });
  expect(spec.method).toBe("ask");
  expect(spec.reply(3)).toBe(3);
  expect(() => spec.reply("3")).toThrow("not a number");
});
