/** A command the agent refuses, with a sentence the host can show as is; `kind` says why when a caller decides on it. */
import type { ErrorKind } from "../core/errors.ts";

export class CommandError extends Error {
  constructor(
    message: string,
    readonly kind?: ErrorKind,
  ) {
    super(message);
  }
}
