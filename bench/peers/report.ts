/**
 * The peers table (values and nova/peer ratios), the issue's targets checked
 * against it, and the block in bench/RESULTS.md that keeps the latest run.
 * Only the text between the markers is rewritten; notes written by hand
 * around it stay.
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ROOT } from "../lib.ts";
import type { Row } from "./measures.ts";

export interface Measured {
  label: string;
  row: Row;
  /** decimals shown */
  digits?: number;
  /** agents this measure does not apply to: "n/a" */
  na?: string[];
}

const BEGIN = "<!-- peers:begin (written by bun run bench:peers) -->";
const END = "<!-- peers:end -->";
const HEADING = "## Peers: nova against Pi, oh-my-pi and other headless agents (`bun run bench:peers`)";

export function table(rows: Measured[], names: string[]): string {
  const peers = names.filter((n) => n !== "nova");
  const head = `| measure | ${names.join(" | ")} | ${peers.map((p) => `nova/${p}`).join(" | ")} |`;
  const rule = `|${" --- |".repeat(1 + names.length + peers.length)}`;
  const lines = rows.map(({ label, row, digits = 0, na = [] }) => {
    const values = names.map((n) => (na.includes(n) ? "n/a" : Number.isFinite(row[n]) ? row[n]!.toFixed(digits) : "failed"));
    const ratios = peers.map((p) => (Number.isFinite(row[p]) && Number.isFinite(row.nova) ? (row.nova! / row[p]!).toFixed(3) : "—"));
    return `| ${label} | ${values.join(" | ")} | ${ratios.join(" | ")} |`;
  });
  return [head, rule, ...lines].join("\n");
}

export interface Target {
  text: string;
  met: boolean;
  detail: string;
}

export function targetList(targets: Target[]): string {
  return targets.map((t) => `- ${t.met ? "met" : "MISSED"}: ${t.text} (${t.detail})`).join("\n");
}

/** Replaces the generated block in bench/RESULTS.md, adding the section when it is not there yet. */
export function writeResults(block: string): string {
  const file = join(ROOT, "bench/RESULTS.md");
  const text = existsSync(file) ? readFileSync(file, "utf8") : "# Benchmark results\n";
  const generated = `${BEGIN}\n${block}\n${END}`;
  const begin = text.indexOf(BEGIN);
  const end = text.indexOf(END);
  const next = begin >= 0 && end > begin ? text.slice(0, begin) + generated + text.slice(end + END.length) : `${text.trimEnd()}\n\n${HEADING}\n\n${generated}\n`;
  writeFileSync(file, next);
  return file;
}
