/** Shared helpers for the benchmarks: compile, spawn, time, report. */
import { mkdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";

export const ROOT = resolve(import.meta.dir, "..");
export const TMP = join(ROOT, ".bench-tmp");
export const NOVA = join(ROOT, "dist/nova");

export async function compile(entry: string, name: string): Promise<string> {
  mkdirSync(TMP, { recursive: true });
  const outfile = join(TMP, name);
  const result = await Bun.build({ entrypoints: [entry], minify: true, compile: { outfile, autoloadDotenv: false, autoloadBunfig: false } });
  if (!result.success) throw new Error(`could not compile ${entry}`);
  return outfile;
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/**
 * Reads a process's stdout line by line across calls: `until(match)` resolves
 * at the first line that matches. One reader is kept, so stopping early does
 * not cancel the stream.
 */
export function lineReader(stream: ReadableStream<Uint8Array>) {
  const reader = stream.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  return async function until(match: (line: string) => boolean): Promise<void> {
    for (;;) {
      let lf: number;
      while ((lf = buffer.indexOf("\n")) >= 0) {
        const line = buffer.slice(0, lf);
        buffer = buffer.slice(lf + 1);
        if (match(line)) return;
      }
      const { done, value } = await reader.read();
      if (done) throw new Error("stream ended before the expected line");
      buffer += decoder.decode(value, { stream: true });
    }
  };
}

export function env(): Record<string, string> {
  const home = join(TMP, "home");
  mkdirSync(home, { recursive: true });
  return { PATH: process.env.PATH ?? "", HOME: home, NOVA_HOME: home };
}

export function ratio(a: number, b: number): string {
  return (a / b).toFixed(2);
}

/** A running process's memory from /proc, in KiB: resident, and its file-backed and anonymous parts. */
export function procMemory(pid: number): { rssKb: number; fileKb: number; anonKb: number } {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)![1]);
  return { rssKb: kb("VmRSS"), fileKb: kb("RssFile"), anonKb: kb("RssAnon") };
}

export function rssKb(pid: number): number {
  return procMemory(pid).rssKb;
}
