/**
 * The only place that loads sharp. It is loaded on first use, not at start:
 * loading libvips costs ~20 ms and may fail on a platform without it, and every
 * command except the image tools must work either way. `require` (CJS) on
 * purpose: it is the entry that a compiled binary can embed
 * (see shared/research/sharp-bun-compile.md).
 */
export type Sharp = typeof import("sharp").default;

export class SharpUnavailableError extends Error {
  override name = "SharpUnavailableError";
}

let loaded: Sharp | undefined;

export async function loadSharp(): Promise<Sharp> {
  if (loaded) return loaded;
  try {
    loaded = require("sharp") as Sharp;
    return loaded;
  } catch (err) {
    throw new SharpUnavailableError(
      `image support (sharp/libvips) is unavailable on ${process.platform}-${process.arch}: ${(err as Error).message}`,
    );
  }
}
