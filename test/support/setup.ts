/** Preloaded by bunfig.toml: process-level tests spawn nova and servers, so 5 s per test is too tight on a busy 2-core CI machine. */
import { setDefaultTimeout } from "bun:test";

setDefaultTimeout(30_000);
