/** Peak and current memory of a child process, read from /proc (Linux). */
import { readFileSync } from "node:fs";

export const MiB = 1024 * 1024;

/** VmHWM: the highest resident set size the process has had, in bytes. */
export function peakRss(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = /^VmHWM:\s+(\d+) kB/m.exec(status);
  if (!kb) throw new Error(`no VmHWM in /proc/${pid}/status`);
  return Number(kb[1]) * 1024;
}
