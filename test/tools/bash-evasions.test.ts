/**
 * The evasion table (bash-evasions.ts) against real bash: each row is
 * checked; a row the check lets run is run, in a bubblewrap jail (the whole
 * file system read-only but the scratch folder, no network), and must leave
 * the victim folder outside the cwd exactly as it was.
 */
import { describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { checkCommand } from "../../src/tools/permissions.ts";
import { basicForms, evasions, plainCommands, rows, type EvasionRow } from "./bash-evasions.ts";

const noRules = { ask: [], allow: [], deny: [] };

function scratch() {
  const base = realpathSync(mkdtempSync(join(tmpdir(), "nova-evasion-")));
  const cwd = join(base, "work");
  const victim = join(base, "victim");
  mkdirSync(cwd);
  mkdirSync(join(victim, "sub"), { recursive: true });
  mkdirSync(join(victim, "empty"));
  writeFileSync(join(victim, "file.txt"), "precious\n");
  writeFileSync(join(victim, "sub", "deep.txt"), "deep\n");
  writeFileSync(join(cwd, "a.txt"), "x\n");
  return { base, cwd, victim };
}

/** Every path under the victim with its type, mode and content. */
function snapshot(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: "utf8" })
    .sort()
    .map((p) => {
      const full = join(dir, p);
      const st = statSync(full, { throwIfNoEntry: false });
      if (!st) return `${p} dangling`;
      return `${p} ${st.mode.toString(8)} ${st.isFile() ? readFileSync(full, "utf8") : "dir"}`;
    });
}

function jailed(script: string, s: { base: string; cwd: string; victim: string }): { code: number | null; output: string } {
  const proc = Bun.spawnSync(
    [
      "bwrap",
      "--ro-bind",
      "/",
      "/",
      "--dev",
      "/dev",
      "--proc",
      "/proc",
      "--tmpfs",
      "/tmp",
      "--bind",
      s.base,
      s.base,
      "--unshare-all",
      "--die-with-parent",
      "--cap-drop",
      "ALL",
      "--chdir",
      s.cwd,
      "--setenv",
      "HOME",
      s.victim,
      "timeout",
      "-s",
      "KILL",
      "10",
      "bash",
      "-c",
      script,
    ],
    { stdout: "pipe", stderr: "pipe" },
  );
  return { code: proc.exitCode, output: proc.stdout.toString() + proc.stderr.toString() };
}

const fill = (text: string, s: { base: string; victim: string }) => text.replaceAll("VICTIM", s.victim).replaceAll("BASE", s.base);

function runRow(row: EvasionRow) {
  const s = scratch();
  if (row.setup) {
    const setup = jailed(fill(row.setup, s), s);
    if (setup.code !== 0) throw new Error(`setup of ${JSON.stringify(row.command)} failed: ${setup.output}`);
  }
  const before = snapshot(s.victim);
  const command = fill(row.command, s);
  const verdict = checkCommand(command, noRules, s.cwd);
  if (verdict.verdict !== "allow") return { verdict, harmless: undefined };
  const ran = jailed(command, s);
  return { verdict, harmless: JSON.stringify(snapshot(s.victim)) === JSON.stringify(before), output: ran.output };
}

describe("bash evasions against real bash", () => {
  test("the table holds the 64 basic forms, every evasion of the issue and plain commands", () => {
    expect(basicForms).toHaveLength(64);
    expect(evasions.length).toBeGreaterThanOrEqual(42);
    expect(plainCommands.length).toBeGreaterThan(0);
    expect(new Set(rows.map((r) => r.command)).size).toBe(rows.length);
  });

  for (const row of rows) {
    test(`${row.group}: ${JSON.stringify(row.command)}`, () => {
      const { verdict, harmless, output } = runRow(row);
      if (row.expect === "ask") expect({ verdict: verdict.verdict, reason: verdict.reason }).toMatchObject({ verdict: "ask" });
      if (row.expect === "allow") expect(verdict).toEqual({ verdict: "allow" });
      if (verdict.verdict === "ask") expect(verdict.reason ?? "").not.toBe("");
      // asked, or run for real and the victim is untouched
      if (verdict.verdict === "allow") expect({ harmless, output }).toMatchObject({ harmless: true });
    });
  }
});
