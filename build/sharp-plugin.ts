/**
 * Puts one platform's sharp into the executable (see
 * shared/research/sharp-bun-compile.md). sharp requires its addon by a static
 * path per platform; this plugin answers the target's path with a shim that
 * returns the addon src/tools/sharp-native.ts preloaded, and every other
 * platform's with a stub, so only the target's files are embedded. The
 * virtual module "nova:sharp-native" embeds the addon and libvips as files
 * with their sizes and SHA-256; the large ones (libvips) zstd-compressed,
 * unpacked by sharp-native.ts on first use. With `images: false` sharp is left out
 * altogether (the bench's baseline).
 */
import type { BunPlugin } from "bun";
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
// sharp does not export its package.json, so TypeScript cannot import it; Bun can require it
const sharpPackage = require("sharp/package.json") as { version: string; optionalDependencies: Record<string, string> };
import { NATIVE_ADDON } from "../src/tools/sharp-native.ts";

export type SharpNative =
  | {
      images: true;
      platform: string /** @img/sharp-<platform> and, except on win32, @img/sharp-libvips-<platform> */;
      packageDirs: Record<string, string>;
      /** embed the large files uncompressed (the image bench's "before") */
      uncompressed?: boolean;
    }
  | { images: false };

const NATIVE_FILE = /\.(node|dll|dylib|so(\.\d+)*)$/;

/** Files at least this large are embedded zstd-compressed (libvips: 18.7 MB → 6.9 MB). */
const COMPRESS_FROM = 1024 * 1024;
/** Compressed files by the SHA-256 of their original: level 19 takes ~10 s, so each is compressed once. */
const ZSTD_CACHE = join(import.meta.dir, ".cache", "zstd");

/** The zstd-compressed copy of `bytes` (whose SHA-256 is `sha256`), from the cache or made now. */
function compressed(bytes: Uint8Array, sha256: string): string {
  const path = join(ZSTD_CACHE, `${sha256}.zst`);
  if (existsSync(path)) return path;
  mkdirSync(ZSTD_CACHE, { recursive: true });
  const temp = `${path}.${process.pid}.tmp`;
  writeFileSync(temp, Bun.zstdCompressSync(bytes, { level: 19 }));
  renameSync(temp, path);
  return path;
}

function notBundled(what: string): string {
  return `const e = new Error(${JSON.stringify(`${what} is not part of this build`)}); e.code = "MODULE_NOT_FOUND"; throw e;`;
}

/** The manifest module's source: one embedded-file import per native file. */
function manifestSource(platform: string, packageDirs: Record<string, string>, uncompressed = false): string {
  const files: { rel: string; abs: string; size: number; sha256: string; zstd: boolean }[] = [];
  for (const [name, dir] of Object.entries(packageDirs)) {
    for (const file of readdirSync(join(dir, "lib"))
      .filter((f) => NATIVE_FILE.test(f))
      .sort()) {
      const abs = join(dir, "lib", file);
      const bytes = readFileSync(abs);
      const sha256 = new Bun.CryptoHasher("sha256").update(bytes).digest("hex");
      const zstd = !uncompressed && bytes.length >= COMPRESS_FROM;
      files.push({ rel: `${name}/lib/${file}`, abs: zstd ? compressed(bytes, sha256) : abs, size: bytes.length, sha256, zstd });
    }
  }
  const addon = files.find((f) => f.rel.startsWith(`@img/sharp-${platform}/`) && f.rel.endsWith(".node"));
  if (!addon) throw new Error(`no sharp addon (.node) in ${packageDirs[`@img/sharp-${platform}`]}/lib`);
  const contentHash = new Bun.CryptoHasher("sha256")
    .update(files.map((f) => f.sha256).join(""))
    .digest("hex")
    .slice(0, 12);
  const imports = files.map((f, i) => `import f${i} from ${JSON.stringify(f.abs)} with { type: "file" };`);
  const entries = files.map((f, i) => `{ rel: ${JSON.stringify(f.rel)}, path: f${i}, size: ${f.size}, sha256: ${JSON.stringify(f.sha256)}, zstd: ${f.zstd} }`);
  const key = `sharp-${sharpPackage.version}-${platform}-${contentHash}`;
  return `${imports.join("\n")}\nexport default { key: ${JSON.stringify(key)}, addon: ${JSON.stringify(addon.rel)}, files: [${entries.join(", ")}] };\n`;
}

export function sharpNativePlugin(options: SharpNative): BunPlugin {
  return {
    name: "sharp-native",
    setup(build) {
      build.onResolve({ filter: /^nova:sharp-native$/ }, () => ({ path: "manifest", namespace: "sharp-native" }));
      build.onResolve({ filter: /^@img\/sharp-[a-z0-9-]+\/sharp\.node$/ }, (args) => ({ path: args.path, namespace: "sharp-addon" }));
      if (!options.images) build.onResolve({ filter: /^sharp$/ }, () => ({ path: "sharp", namespace: "sharp-left-out" }));

      build.onLoad({ filter: /.*/, namespace: "sharp-left-out" }, () => ({ loader: "js", contents: notBundled("sharp (image tools)") }));
      build.onLoad({ filter: /.*/, namespace: "sharp-native" }, () => ({
        loader: "js",
        contents: options.images ? manifestSource(options.platform, options.packageDirs, options.uncompressed) : notBundled("sharp (image tools)"),
      }));
      build.onLoad({ filter: /.*/, namespace: "sharp-addon" }, (args) => ({
        loader: "js",
        contents:
          options.images && args.path === `@img/sharp-${options.platform}/sharp.node`
            ? `const addon = globalThis[Symbol.for(${JSON.stringify(NATIVE_ADDON.description)})]; if (!addon) { ${notBundled("sharp's addon, not preloaded,")} } module.exports = addon;`
            : notBundled(args.path),
      }));
    },
  };
}
