/** Where the build puts things, for the tests that check its output. */
import { join } from "node:path";
import { ROOT } from "../support/nova.ts";

export const DIST = join(ROOT, "dist");
export const NOVA_BINARY = join(DIST, process.platform === "win32" ? "nova.exe" : "nova");
export const NPM_DIST = join(DIST, "npm");
/** Set to build every target (and the npm tarballs) when dist/ lacks them; CI builds them before the tests instead. */
export const BUILD_ALL = process.env.NOVA_BUILD_ALL === "1";
