/**
 * Output backpressure reaches the input: while the host does not read
 * stdout, nova stops reading stdin once about 1000 responses wait, so a host
 * that keeps writing blocks on its own pipe instead of growing nova. When the
 * host reads again every response arrives, in order.
 */
import { expect, test } from "bun:test";
import { command, tempDir } from "../support/nova.ts";
import { MiB, peakRss } from "../support/memory.ts";

const COUNT = 60_000;

test("60 000 get_state sent while stdout is not read: nova stays under 100 MiB, and every response comes once reading resumes", async () => {
  const home = tempDir("nova-home-");
  const proc = Bun.spawn([...command(), "--mode", "rpc", "--no-session"], {
    cwd: tempDir(),
    env: { PATH: process.env.PATH!, HOME: home, NOVA_HOME: home },
    stdin: "pipe",
    stdout: "pipe",
    stderr: "ignore",
  });
  const reader = proc.stdout.getReader();
  // read only `ready`: from here on the test reads nothing until every command is written
  const first = await reader.read();
  const firstText = new TextDecoder().decode(first.value);
  expect(firstText).toStartWith('{"type":"ready",');

  let written = 0;
  const writing = (async () => {
    const batch = 500;
    for (let i = 0; i < COUNT; i += batch) {
      let text = "";
      for (let j = i; j < i + batch; j++) text += `{"id":"s${j}","type":"get_state"}\n`;
      proc.stdin.write(text);
      await proc.stdin.flush();
      written = i + batch;
    }
  })();
  // the host is blocked on its own pipe long before it has written everything
  const stalled = await Promise.race([writing.then(() => false), Bun.sleep(8000).then(() => true)]);
  const during = { stalled, written, peakMiB: Math.round(peakRss(proc.pid) / MiB) };
  expect(during.stalled && during.written < COUNT && during.peakMiB < 100 ? "blocked, small" : during).toBe("blocked, small");

  // the host reads again: every response arrives, in order, none lost
  const decoder = new TextDecoder();
  let buffer = firstText.slice(firstText.indexOf("\n") + 1);
  let next = 0;
  while (next < COUNT) {
    let lf: number;
    while ((lf = buffer.indexOf("\n")) >= 0) {
      const frame = JSON.parse(buffer.slice(0, lf));
      buffer = buffer.slice(lf + 1);
      expect(frame).toMatchObject({ id: `s${next}`, type: "response", command: "get_state", success: true });
      next++;
    }
    if (next === COUNT) break;
    const { done, value } = await reader.read();
    if (done) break;
    buffer += decoder.decode(value, { stream: true });
  }
  await writing;
  expect(next).toBe(COUNT);
  expect(peakRss(proc.pid)).toBeLessThan(100 * MiB);
  proc.stdin.end();
  reader.releaseLock();
  expect(await proc.exited).toBe(0);
}, 120_000);
