import { afterEach, beforeEach, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SessionStore } from "../../src/session/store.ts";

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "nova-kill-"));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

const STORE_MODULE = join(import.meta.dir, "../../src/session/store.ts");

/** Appends forever; reports the file path, then a progress line every 25 appends (sync, so none sit in a buffer). */
const WRITER = `
import { writeSync } from "node:fs";
import { SessionStore } from ${JSON.stringify(STORE_MODULE)};
const store = SessionStore.create(process.env.SESSION_DIR, { cwd: "/w" });
writeSync(1, store.path + "\\n");
for (let i = 1; ; i++) {
  const text = "x".repeat((i * 7919) % 20000);
  store.append({ type: "message", message: { role: "user", content: text, timestamp: i } });
  if (i % 25 === 0) writeSync(1, i + "\\n");
}
`;

async function runAndKill(progressReports: number): Promise<string> {
  const child = Bun.spawn(["bun", "-e", WRITER], {
    env: { ...process.env, SESSION_DIR: dir },
    stdout: "pipe",
    stderr: "inherit",
  });
  const lines: string[] = [];
  const decoder = new TextDecoder();
  let pending = "";
  for await (const chunk of child.stdout) {
    pending += decoder.decode(chunk, { stream: true });
    const parts = pending.split("\n");
    pending = parts.pop() ?? "";
    lines.push(...parts);
    if (lines.length > progressReports) break;
  }
  child.kill("SIGKILL");
  await child.exited;
  expect(child.signalCode).toBe("SIGKILL");
  return lines[0]!;
}

test("a writer killed with SIGKILL at a random moment leaves every complete line loadable", async () => {
  for (let run = 0; run < 3; run++) {
    const path = await runAndKill(1 + Math.floor(Math.random() * 8));
    const raw = readFileSync(path, "utf8");
    const segments = raw.split("\n");
    const partial = segments.pop();
    const completeIds = segments.slice(1).map((line) => JSON.parse(line).id as string);
    expect(completeIds.length).toBeGreaterThanOrEqual(25);

    const { store, warnings } = await SessionStore.open(path);
    expect(store.entries.map((entry) => entry.id)).toEqual(completeIds);
    expect(warnings).toHaveLength(partial === "" ? 0 : 1);

    const added = store.append({ type: "session_info", name: "after the kill" });
    store.close();
    const reopened = await SessionStore.open(path);
    expect(reopened.store.entries.at(-1)).toEqual(added);
    expect(reopened.store.pathToLeaf()).toHaveLength(completeIds.length + 1);
    rmSync(path);
  }
});
