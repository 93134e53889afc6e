/**
 * What an rpc start that uses neither pays nothing for: the files statically
 * reachable from src/main.ts and rpc mode (type-only and dynamic imports left
 * out) do not include the scripted provider, its built-in script, or the
 * -p/json front end.
 */
import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { ROOT } from "../support/nova.ts";

const STATIC_IMPORT = /^\s*(?:import|export)\s+(?!type\b)(?:[^"';]*?\sfrom\s+)?["']([^"']+)["']/gm;

function reachable(...entries: string[]): Set<string> {
  const seen = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    if (!file.endsWith(".ts")) return;
    for (const [, specifier] of readFileSync(file, "utf8").matchAll(STATIC_IMPORT)) {
      if (specifier!.startsWith(".")) visit(resolve(dirname(file), specifier!));
    }
  };
  for (const entry of entries) visit(entry);
  return new Set([...seen].map((f) => relative(join(ROOT, "src"), f)));
}

test("an rpc start reaches the scripted provider and print/ only through import()", () => {
  const files = reachable(join(ROOT, "src/main.ts"), join(ROOT, "src/rpc/mode.ts"));
  expect(files).toContain("providers/registry.ts");
  expect(files).toContain("agent/session.ts");
  for (const lazy of ["providers/scripted.ts", "providers/script-format.ts", "providers/script-template.ts", "providers/scripts/demo.yml", "print/mode.ts", "print/progress.ts"]) {
    expect(files).not.toContain(lazy);
  }
});
