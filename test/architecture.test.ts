/**
 * The folder-level import graph of src/: every import (type-only, dynamic
 * `import()` and `require()` included) points to a lower layer. The table is
 * the one `docs/architecture.md` states under "## Layers"; a new folder goes
 * into a layer here and there.
 */
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { dirname, join, normalize, relative } from "node:path";
import ts from "typescript";

/** Bottom first. A folder may import folders of lower layers only (not its own layer's). */
const LAYERS: string[][] = [
  ["core"],
  ["providers", "host", "session", "wire"],
  ["config", "cli"],
  ["tools", "mcp", "sandbox"],
  ["checkpoints"],
  ["agent"],
  ["rpc", "acp", "print"],
  ["main", "client"],
];

const ROOT = join(import.meta.dir, "..");
const SRC = join(ROOT, "src");

interface Violation {
  file: string;
  specifier: string;
  why: string;
}

/** src/agent/x.ts → "agent"; src/main.ts → "main". */
function folderOf(path: string): string {
  const [first, ...rest] = relative(SRC, path).split("/");
  return rest.length === 0 ? first!.replace(/\.ts$/, "") : first!;
}

/** Every module specifier a file names: static, type-only, re-exports, `import()` and `require()`. */
function importsOf(text: string): string[] {
  const info = ts.preProcessFile(text, true, true);
  return info.importedFiles.map((f) => f.fileName);
}

function layerOf(folder: string): number {
  return LAYERS.findIndex((layer) => layer.includes(folder));
}

function check(files: Map<string, string>): Violation[] {
  const violations: Violation[] = [];
  for (const [file, text] of files) {
    const from = folderOf(file);
    const fromLayer = layerOf(from);
    if (fromLayer < 0) {
      violations.push({ file, specifier: "", why: `folder "${from}" is in no layer; add it to LAYERS in test/architecture.test.ts and to docs/architecture.md` });
      continue;
    }
    for (const specifier of importsOf(text)) {
      if (!specifier.startsWith(".")) continue;
      const target = normalize(join(dirname(file), specifier));
      if (relative(SRC, target).startsWith("..")) continue;
      const to = folderOf(target);
      if (to === from) continue;
      const toLayer = layerOf(to);
      if (toLayer < 0) violations.push({ file, specifier, why: `"${to}" is in no layer` });
      else if (toLayer === fromLayer) violations.push({ file, specifier, why: `${from} → ${to}: same layer (${LAYERS[fromLayer]!.join(", ")}); move the shared part down` });
      else if (toLayer > fromLayer) violations.push({ file, specifier, why: `${from} → ${to} points up a layer` });
    }
  }
  return violations;
}

function sources(): Map<string, string> {
  const files = new Map<string, string>();
  for (const path of new Bun.Glob("**/*.ts").scanSync(SRC)) files.set(join(SRC, path), readFileSync(join(SRC, path), "utf8"));
  return files;
}

const describeViolation = (v: Violation) => `${relative(ROOT, v.file)}${v.specifier ? ` imports "${v.specifier}"` : ""}: ${v.why}`;

describe("import graph of src/", () => {
  test("every import points down a layer", () => {
    expect(check(sources()).map(describeViolation)).toEqual([]);
  });

  test("every folder of src/ is in a layer and every layer folder is named once", () => {
    const folders = new Set([...sources().keys()].map(folderOf));
    const named = LAYERS.flat();
    expect(new Set(named).size).toBe(named.length);
    expect([...folders].filter((f) => layerOf(f) < 0)).toEqual([]);
  });

  test("docs/architecture.md states the same layers, top first", () => {
    const doc = readFileSync(join(ROOT, "docs/architecture.md"), "utf8");
    const block = /## Layers\n[\s\S]*?```\n([\s\S]*?)```/.exec(doc)?.[1];
    expect(block).toBeDefined();
    const stated = block!
      .trim()
      .split("\n")
      .map((line) => line.split("#")[0]!.trim().split(/\s+/));
    expect(stated).toEqual([...LAYERS].reverse());
  });

  test("the check names the file and the import that points up or sideways", () => {
    const files = new Map([
      [join(SRC, "tools/x.ts"), `import type { A } from "../agent/a.ts";\nconst b = await import("../rpc/b.ts");`],
      [join(SRC, "rpc/y.ts"), `export { c } from "../acp/c.ts";\nimport { d } from "../core/d.ts";\nconst e = require("../wire/e.ts");`],
      [join(SRC, "core/z.ts"), `import "zod";\nimport "../../package.json";`],
      [join(SRC, "newthing/w.ts"), ``],
    ]);
    expect(check(files).map(describeViolation)).toEqual([
      `src/tools/x.ts imports "../agent/a.ts": tools → agent points up a layer`,
      `src/tools/x.ts imports "../rpc/b.ts": tools → rpc points up a layer`,
      `src/rpc/y.ts imports "../acp/c.ts": rpc → acp: same layer (rpc, acp, print); move the shared part down`,
      `src/newthing/w.ts: folder "newthing" is in no layer; add it to LAYERS in test/architecture.test.ts and to docs/architecture.md`,
    ]);
  });
});
