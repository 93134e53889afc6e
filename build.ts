/**
 * Builds the nova executable.
 *
 *   bun run build                → dist/nova for this machine
 *   bun run build --all          → dist/<target>/nova[.exe] + .sha256 for every target
 *   bun build.ts --pack          → npm tarballs in dist/npm/ (launcher + each platform dist/ holds)
 *   bun build.ts --record-order  → build/bytecode-order.txt from one run of dist/nova, then dist/nova again
 *
 * Everything a cross-build needs (other targets' Bun runtimes, sharp's native
 * packages) comes from the npm registry as packages (build/npm-fetch.ts).
 * Version, target and commit are baked in so `nova --version` can tell them.
 */
import { existsSync, mkdirSync, realpathSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fetchPackages } from "./build/npm-fetch.ts";
import { packAll } from "./build/pack.ts";
import { ORDER_FILE, recordOrder } from "./build/record-order.ts";
import { type SharpNative, sharpNativePlugin } from "./build/sharp-plugin.ts";
import { TARGETS, type Target, hostTarget } from "./build/targets.ts";
import pkg from "./package.json" with { type: "json" };
// sharp does not export its package.json, so TypeScript cannot import it; Bun can require it
const sharpPackage = require("sharp/package.json") as { version: string; optionalDependencies: Record<string, string> };

function commit(): string {
  const result = Bun.spawnSync(["git", "rev-parse", "--short=12", "HEAD"], { stderr: "ignore" });
  return result.success ? result.stdout.toString().trim() : "unknown";
}

/** The installed host packages: `bun run build` works offline with what `bun install` put there. */
export function installedSharp(target: Target): SharpNative & { images: true } {
  const names = [`@img/sharp-${target.sharp}`, `@img/sharp-libvips-${target.sharp}`];
  return { images: true, platform: target.sharp, packageDirs: Object.fromEntries(names.map((n) => [n, dirname(realpathSync(require.resolve(`${n}/package.json`)))])) };
}

function fetchedSharp(target: Target): SharpNative {
  const versions = sharpPackage.optionalDependencies as Record<string, string>;
  const names = [`@img/sharp-${target.sharp}`, `@img/sharp-libvips-${target.sharp}`].filter((n) => versions[n]);
  const dirs = fetchPackages(names.map((name) => ({ name, version: versions[name]! })));
  return { images: true, platform: target.sharp, packageDirs: Object.fromEntries(names.map((n, i) => [n, dirs[i]!])) };
}

export interface BuildOptions {
  target: Target;
  outfile: string;
  sharp: SharpNative;
  /** a Bun runtime for the target; the running Bun when absent */
  executablePath?: string;
}

/**
 * The built-in tools' JSON Schemas, generated from their zod schemas here
 * rather than in every process that is asked for them (3–5 ms of a cold start).
 */
async function toolParameters(): Promise<Record<string, unknown>> {
  const { allToolsForSchemas } = await import("./src/tools/index.ts");
  return Object.fromEntries(allToolsForSchemas().map((tool) => [tool.name, tool.parameters]));
}

/** The config schema's defaults (its parse of `{}`), so a start without a config file does not build the schema. */
async function configDefaults(): Promise<unknown> {
  const { configSchema } = await import("./src/config/schema.ts");
  return configSchema().parse({});
}

/** Every command's schema as JSON Schema, so the first commands of a start are checked without building zod schemas. */
async function commandJsonSchemas(): Promise<Record<string, string>> {
  const { commandJsonSchema, commandTypes } = await import("./src/rpc/commands.ts");
  return Object.fromEntries(commandTypes.map((type) => [type, JSON.stringify(commandJsonSchema(type))]));
}

/** The config schema as JSON Schema, so a start with a config file checks it without building the zod schema. */
async function configJsonSchema(): Promise<unknown> {
  return (await import("./src/config/schema.ts")).configJsonSchema();
}

export async function buildExecutable(options: BuildOptions): Promise<string> {
  mkdirSync(dirname(options.outfile), { recursive: true });
  const info = { version: pkg.version, target: options.target.name, commit: commit() };
  const result = await Bun.build({
    // grep's worker thread is an entry point of its own: tools/grep-parallel.ts starts it by this path
    entrypoints: [join(import.meta.dir, "src", "main.ts"), join(import.meta.dir, "src", "tools", "grep-worker.ts")],
    // NOVA_PROFILE=1 keeps identifiers, so a `--cpu-prof` profile of the executable names its functions
    minify: process.env.NOVA_PROFILE ? { whitespace: true, syntax: true, identifiers: false } : true,
    sourcemap: "none",
    // Bytecode halves spawn → ready (measured 51 → 26 ms on linux-x64); ESM keeps import.meta and top-level await.
    bytecode: true,
    format: "esm",
    define: {
      NOVA_BUILD: JSON.stringify(info),
      NOVA_TOOL_PARAMETERS: JSON.stringify(await toolParameters()),
      NOVA_CONFIG_DEFAULTS: JSON.stringify(await configDefaults()),
      NOVA_CONFIG_JSON_SCHEMA: JSON.stringify(await configJsonSchema()),
      NOVA_COMMAND_SCHEMAS: JSON.stringify(await commandJsonSchemas()),
    },
    plugins: [sharpNativePlugin(options.sharp)],
    compile: {
      target: options.target.bun,
      outfile: options.outfile,
      ...(options.executablePath ? { executablePath: options.executablePath } : {}),
      autoloadDotenv: false,
      autoloadBunfig: false,
      // the bytecode one typical life uses, laid out together (build/record-order.ts): fewer pages touched
      bytecodeOrder: existsSync(ORDER_FILE) && ORDER_FILE,
      // tier-up thresholds × 8: code that runs a few times at start or per prompt stays in the
      // interpreter; a long stream still reaches the JIT. Measured: idle RSS after a prompt −3.7 MiB,
      // relay CPU −10 %, start CPU −7 % (bench/RESULTS.md, issue 23)
      jitPolicy: 8,
    },
  });
  if (!result.success) {
    for (const log of result.logs) console.error(log);
    throw new Error(`build failed for ${options.target.name}`);
  }
  return options.outfile;
}

/** Every target into dist/<target>/, each next to its SHA-256 in `sha256sum` format. */
async function buildAll(): Promise<void> {
  const host = hostTarget();
  const runtimes = fetchPackages(TARGETS.filter((t) => t !== host).map((t) => ({ name: t.runtimePackage, version: Bun.version })));
  let next = 0;
  for (const target of TARGETS) {
    const executablePath = target === host ? undefined : join(runtimes[next++]!, "bin", target.name.startsWith("windows") ? "bun.exe" : "bun");
    const outfile = join("dist", target.name, target.exe);
    await buildExecutable({ target, outfile, sharp: fetchedSharp(target), executablePath });
    const digest = new Bun.CryptoHasher("sha256").update(await Bun.file(outfile).bytes()).digest("hex");
    writeFileSync(`${outfile}.sha256`, `${digest}  ${target.exe}\n`);
    console.error(`built ${outfile}`);
  }
}

if (import.meta.main) {
  const flags = new Set(process.argv.slice(2));
  const known = ["--all", "--pack", "--record-order"];
  for (const flag of flags) if (!known.includes(flag)) throw new Error(`unknown flag ${flag}; expected one of ${known.join(", ")}`);
  const host = hostTarget();
  console.error(`built ${await buildExecutable({ target: host, outfile: "dist/nova", sharp: installedSharp(host) })}`);
  if (flags.has("--record-order")) {
    await recordOrder("dist/nova");
    console.error(`recorded ${ORDER_FILE}; built again with it: ${await buildExecutable({ target: host, outfile: "dist/nova", sharp: installedSharp(host) })}`);
  }
  if (flags.has("--all")) await buildAll();
  if (flags.has("--pack")) await packAll();
}
