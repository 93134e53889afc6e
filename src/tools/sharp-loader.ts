/**
 * The only place that loads sharp. It is loaded on first use, not at start:
 * loading libvips costs ~20 ms and may fail on a platform without it, and every
 * command except the image tools must work either way. `require` (CJS) on
 * purpose: it is the entry that a compiled binary can embed
 * (see shared/research/sharp-bun-compile.md). In the compiled binary the
 * addon and libvips come from the executable itself (sharp-native.ts).
 */
import type { NativeManifest } from "./sharp-native.ts";

export type Sharp = typeof import("sharp").default;

export class SharpUnavailableError extends Error {
  override name = "SharpUnavailableError";
}

let loaded: Sharp | undefined;
let failure: SharpUnavailableError | undefined;

export async function loadSharp(): Promise<Sharp> {
  if (loaded) return loaded;
  if (failure) throw failure;
  try {
    if (Bun.isStandaloneExecutable) {
      const manifest: NativeManifest = require("nova:sharp-native").default;
      require("./sharp-native.ts").preloadEmbeddedAddon(manifest);
    }
    loaded = require("sharp") as Sharp;
    return loaded;
  } catch (err) {
    const reason = (err as Error).message.split("\n").slice(0, 3).join(" | ");
    failure = new SharpUnavailableError(`image support (sharp/libvips) is unavailable on ${process.platform}-${process.arch}: ${reason}`);
    throw failure;
  }
}
