/**
 * The two ways nova runs: from source and as the compiled executable built by
 * `bun run build` (the README's test command builds it first).
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { ROOT } from "./nova.ts";

export const BINARY = join(ROOT, "dist/nova");

export interface Target {
  name: string;
  /** undefined = run src/main.ts with this bun */
  binary?: string;
}

export const targets: Target[] = [{ name: "source" }, { name: "binary", binary: BINARY }];

export function requireBinary(): void {
  if (!existsSync(BINARY)) throw new Error(`${BINARY} is missing: run 'bun run build' before 'bun test'`);
}
