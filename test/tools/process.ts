import { readFileSync } from "node:fs";

/** A pid is gone when /proc has no entry for it or it is a zombie waiting to be reaped. */
export function isGone(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2).startsWith("Z");
  } catch {
    return true;
  }
}

/** Killing a grandchild has no event to await from here; poll /proc with a bound instead. */
export async function waitUntilGone(pid: number, ms = 2000): Promise<boolean> {
  const deadline = performance.now() + ms;
  while (!isGone(pid)) {
    if (performance.now() > deadline) return false;
    await Bun.sleep(10);
  }
  return true;
}
