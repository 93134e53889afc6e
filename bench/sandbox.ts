/**
 * Spawn overhead of the OS sandbox: the bash tool's runShell of `true`
 * under bubblewrap against the same call unsandboxed, alternating, median of
 * 30 each. Goal: at most 15 ms more per command. Skipped (said so) where
 * bubblewrap cannot run.
 */
import { median, ratio } from "./lib.ts";
import { prepareSandbox, SandboxUnavailableError } from "../src/sandbox/index.ts";
import { runShell } from "../src/tools/run-shell.ts";

const RUNS = 30;

export async function benchSandbox(): Promise<Record<string, unknown>> {
  let sandbox: ReturnType<typeof prepareSandbox>;
  try {
    sandbox = prepareSandbox(
      { mode: "workspace-write", network: false, writablePaths: [], hidePaths: [], fallback: "error", autoAllow: true, mcp: false },
      { novaHome: "/nonexistent-nova-home" },
    );
  } catch (error) {
    if (error instanceof SandboxUnavailableError) return { skipped: error.message };
    throw error;
  }
  const cwd = process.cwd();
  const time = async (confined: boolean) => {
    const start = performance.now();
    const result = await runShell("true", { cwd, sandbox: confined ? sandbox : undefined });
    if (result.exitCode !== 0) throw new Error(`true failed (${confined ? "sandboxed" : "plain"}): ${result.output}`);
    return performance.now() - start;
  };
  await time(false);
  await time(true);
  const plain: number[] = [];
  const boxed: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    plain.push(await time(false));
    boxed.push(await time(true));
  }
  const p = median(plain);
  const b = median(boxed);
  return {
    "unsandboxed true (median ms)": p.toFixed(1),
    "sandboxed true (median ms)": b.toFixed(1),
    "overhead per command (ms, goal <= 15)": (b - p).toFixed(1),
    "sandboxed / unsandboxed": ratio(b, p),
  };
}
