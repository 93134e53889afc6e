/**
 * Why something failed, as values: front ends and the agent switch on these
 * instead of matching an error's wording.
 */
import type { AssistantMessage } from "./messages.ts";

export const errorKinds = ["refusal", "aborted", "no_model", "compaction_aborted"] as const;
export type ErrorKind = (typeof errorKinds)[number];

/**
 * The kind of a failed assistant message, kept beside the message in this
 * process only: on the wire and in session files a failure stays Pi's shape
 * (`stopReason: "error"` and `errorMessage`).
 */
const failures = new WeakMap<AssistantMessage, ErrorKind>();

export function markFailure(message: AssistantMessage, kind: ErrorKind): void {
  failures.set(message, kind);
}

export function failureKind(message: AssistantMessage): ErrorKind | undefined {
  return failures.get(message);
}
