/**
 * `bun build.ts --record-order`: runs the freshly built dist/nova through one
 * typical life (start with a config file, get_state, a scripted prompt whose
 * tools read, list, search and run bash, then stdin closes) with Bun's
 * BUN_BYTECODE_ORDER_OUT, and keeps what it recorded as
 * build/bytecode-order.txt. build.ts then lays the bytecode that life used out
 * together (`bytecodeOrder`): fewer pages of the executable are touched, so
 * nova starts on less memory. A profile from an older build still applies;
 * record it again when start-up code changes a lot.
 */
import { mkdtempSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

export const ORDER_FILE = resolve(import.meta.dir, "bytecode-order.txt");

export async function recordOrder(binary: string): Promise<void> {
  const home = mkdtempSync(join(tmpdir(), "nova-order-"));
  const out = join(home, "order.txt");
  writeFileSync(join(home, "config.yml"), "defaultModel: scripted/demo\ncompaction:\n  reserveTokens: 8000\n");
  try {
    const proc = Bun.spawn([binary, "--mode", "rpc", "--no-session", "--config", join(home, "config.yml")], {
      cwd: resolve(import.meta.dir, ".."),
      stdin: "pipe",
      stdout: "pipe",
      stderr: "inherit",
      env: { PATH: process.env.PATH ?? "", HOME: home, NOVA_HOME: home, BUN_BYTECODE_ORDER_OUT: out },
    });
    const reader = proc.stdout.getReader();
    const decoder = new TextDecoder();
    let seen = "";
    const until = async (needle: string) => {
      while (!seen.includes(needle)) {
        const { value, done } = await reader.read();
        if (done) throw new Error(`nova ended before ${needle}`);
        seen += decoder.decode(value, { stream: true });
      }
      seen = seen.slice(seen.indexOf(needle) + needle.length);
    };
    await until('"type":"ready"');
    proc.stdin.write('{"id":"s","type":"get_state"}\n');
    await until('"command":"get_state"');
    proc.stdin.write('{"type":"prompt","message":"what is in this folder?"}\n');
    await until('"type":"agent_settled"');
    proc.stdin.end();
    if ((await proc.exited) !== 0) throw new Error("the recording run failed");
    renameSync(out, ORDER_FILE);
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}
