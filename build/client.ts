/**
 * `nova-agent/client` for the npm package: src/client/ bundled to one ESM
 * file (node: imports only), its declarations from tsc, and `protocol.d.ts`
 * generated from `--print-schema` by json-schema-to-typescript: the same
 * names (CommandMap, ResultMap, ReplyMap, FrameMap, Frame) that source infers
 * from the zod schemas, so a host's types come from the schemas nova
 * validates with, and the package needs no zod.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { compile } from "json-schema-to-typescript";
import { commandTypes, replyTypes } from "../src/rpc/commands.ts";
import { frameSchemas } from "../src/core/frames.ts";
import { responseSchema } from "../src/rpc/responses.ts";
import { schemaDocument } from "../src/rpc/print-schema.ts";

const ROOT = join(import.meta.dir, "..");
const pascal = (snake: string) => snake.replace(/(^|_)([a-z])/g, (_, __, c: string) => c.toUpperCase());

async function protocolTypes(): Promise<string> {
  const schema = schemaDocument();
  const types = await compile(schema as Parameters<typeof compile>[0], "NovaLine", {
    bannerComment: "/* Generated from nova --print-schema by build/client.ts. */",
    additionalProperties: false,
  });
  const map = (name: string, entries: [string, string][]) => `export interface ${name} {\n${entries.map(([k, v]) => `  ${k}: ${v};`).join("\n")}\n}\n`;
  const frames = Object.keys(frameSchemas()).map((type): [string, string] => [type, type === "response" ? "Response" : `${pascal(type)}Frame`]);
  return [
    types,
    map(
      "CommandMap",
      commandTypes.map((t) => [t, `${pascal(t)}Command`]),
    ),
    map(
      "ResultMap",
      commandTypes.map((t) => [t, responseSchema(t) ? `${pascal(t)}Response["data"]` : "undefined"]),
    ),
    map(
      "ReplyMap",
      replyTypes.map((t) => [t, `${pascal(t)}Reply`]),
    ),
    map("FrameMap", frames),
  ].join("\n");
}

/** Writes client/index.js, client/index.d.ts and client/protocol.d.ts into the staged nova-agent package. */
export async function stageClient(packageDir: string): Promise<void> {
  const out = join(packageDir, "client");
  mkdirSync(out, { recursive: true });
  const bundle = await Bun.build({ entrypoints: [join(ROOT, "src/client/index.ts")], target: "node", format: "esm", minify: false });
  if (!bundle.success) throw new Error(`client bundle failed: ${bundle.logs.join("\n")}`);
  writeFileSync(join(out, "index.js"), await bundle.outputs[0]!.text());

  const decl = mkdtempSync(join(tmpdir(), "nova-client-d-"));
  try {
    const tsc = Bun.spawnSync(
      [
        join(ROOT, "node_modules/.bin/tsc"),
        "--declaration",
        "--emitDeclarationOnly",
        "--allowImportingTsExtensions",
        "--skipLibCheck",
        "--strict",
        "--target",
        "esnext",
        "--module",
        "esnext",
        "--moduleResolution",
        "bundler",
        "--types",
        "bun-types",
        "--outDir",
        decl,
        join(ROOT, "src/client/index.ts"),
      ],
      { cwd: ROOT, stdout: "pipe", stderr: "pipe" },
    );
    if (!tsc.success) throw new Error(`client declarations failed: ${tsc.stdout.toString()}${tsc.stderr.toString()}`);
    const index = readFileSync(join(decl, "client", "index.d.ts"), "utf8").replaceAll('"./protocol.ts"', '"./protocol.js"');
    writeFileSync(join(out, "index.d.ts"), index);
  } finally {
    rmSync(decl, { recursive: true, force: true });
  }
  writeFileSync(join(out, "protocol.d.ts"), await protocolTypes());
}
