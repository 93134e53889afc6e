/**
 * Preloaded by bunfig.toml: process-level tests spawn nova and servers, so 5 s
 * per test is too tight on a busy 2-core CI machine. Bun 1.4.4 applies a
 * preload's setDefaultTimeout to the first test file only, so the README's
 * test command passes `--timeout 30000` as well; this covers a lone
 * `bun test FILE`. It also removes the tests' temporary folders at the end.
 */
import { afterAll, setDefaultTimeout } from "bun:test";
import { removeTempDirs } from "./temp.ts";

setDefaultTimeout(30_000);
// a preload's afterAll runs once, after every file
afterAll(removeTempDirs);
