/**
 * sharp's native addon and libvips inside the compiled executable. Bun can
 * embed the files but cannot load libvips from its own extraction folder (the
 * addon finds libvips by a path relative to itself), so the build embeds them
 * with a manifest (libvips zstd-compressed, 18.7 → 6.9 MB) and this module
 * unpacks them into a private cache folder that
 * keeps node_modules' layout, checks each against its SHA-256, and dlopens the
 * addon from there. Several nova processes may do this at once: every file is
 * written under a temporary name and renamed into place.
 */
import { chmodSync, lstatSync, mkdirSync, readFileSync, renameSync, statSync, unlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { novaHomeFrom } from "../config/load.ts";

/** Written by the build (build/sharp-plugin.ts) as the virtual module "nova:sharp-native". */
export interface NativeManifest {
  /** folder name, unique per sharp version, platform and file contents */
  key: string;
  /** path of the addon relative to the folder */
  addon: string;
  /** size and SHA-256 are the file's as extracted; `zstd`: embedded zstd-compressed */
  files: { rel: string; path: string; size: number; sha256: string; zstd?: boolean }[];
}

/** Where sharp's addon shim (build/sharp-plugin.ts) picks up the preloaded addon. */
export const NATIVE_ADDON = Symbol.for("nova.sharp.native");

/** Candidate cache roots, best first: nova's own home, then a per-user folder in the temp dir. */
function cacheRoots(env: NodeJS.ProcessEnv): string[] {
  return [join(novaHomeFrom(env), "cache"), join(tmpdir(), `nova-${process.getuid?.() ?? env.USERNAME ?? "user"}`)];
}

function sha256(bytes: Uint8Array): string {
  return new Bun.CryptoHasher("sha256").update(bytes).digest("hex");
}

/** The file at `dest` already holds exactly the expected bytes. */
function isIntact(dest: string, file: NativeManifest["files"][number]): boolean {
  try {
    if (statSync(dest).size !== file.size) return false;
  } catch {
    return false;
  }
  return sha256(readFileSync(dest)) === file.sha256;
}

/** A root someone else could write into would let them swap the library between our check and dlopen. */
function assertPrivate(dir: string): void {
  if (process.platform === "win32") return;
  const info = lstatSync(dir);
  if (!info.isDirectory() || info.uid !== process.getuid!() || (info.mode & 0o022) !== 0) {
    throw new Error(`${dir} is not a private directory of this user (owner ${info.uid}, mode ${(info.mode & 0o777).toString(8)})`);
  }
}

function place(dest: string, file: NativeManifest["files"][number]): void {
  if (isIntact(dest, file)) return;
  const embedded = readFileSync(file.path);
  const bytes = file.zstd ? Bun.zstdDecompressSync(embedded) : embedded;
  if (sha256(bytes) !== file.sha256) throw new Error(`embedded ${file.rel} does not match its SHA-256 ${file.sha256}`);
  mkdirSync(dirname(dest), { recursive: true, mode: 0o700 });
  const temp = `${dest}.${process.pid}.${crypto.randomUUID().slice(0, 8)}.tmp`;
  writeFileSync(temp, bytes, { mode: 0o755 });
  try {
    renameSync(temp, dest);
  } catch (err) {
    // Windows refuses to replace a DLL another nova has loaded; that copy is fine if it is intact.
    unlinkSync(temp);
    if (!isIntact(dest, file)) throw err;
  }
}

function extractInto(root: string, manifest: NativeManifest): string {
  mkdirSync(root, { recursive: true, mode: 0o700 });
  if (process.platform !== "win32") chmodSync(root, 0o700);
  assertPrivate(root);
  const base = join(root, manifest.key);
  for (const file of manifest.files) place(join(base, file.rel), file);
  return join(base, manifest.addon);
}

/** Extracts the embedded files (first usable root wins) and loads the addon for sharp to find. */
export function preloadEmbeddedAddon(manifest: NativeManifest, env: NodeJS.ProcessEnv = process.env): void {
  const failures: string[] = [];
  for (const root of cacheRoots(env)) {
    try {
      const module = { exports: {} };
      process.dlopen(module, extractInto(root, manifest));
      (globalThis as Record<symbol, unknown>)[NATIVE_ADDON] = module.exports;
      return;
    } catch (err) {
      failures.push(`${root}: ${(err as Error).message.split("\n")[0]}`);
    }
  }
  throw new Error(failures.join("; "));
}
