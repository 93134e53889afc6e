/**
 * Limits on what the host may send beyond the 8 MiB record cap: no frame
 * nests deeper than MAX_JSON_DEPTH (a 100 000-deep schema or result would
 * break every later JSON.stringify with a stack overflow), and a host tool's
 * schema stays below MAX_SCHEMA_BYTES. A reply that breaks a limit still
 * settles the request it answers, as a failure, so the run goes on.
 */
import type { ReplyType } from "./commands.ts";

export const MAX_JSON_DEPTH = 64;
export const MAX_SCHEMA_BYTES = 64 * 1024;

/** Whether `value` nests objects/arrays deeper than `max`; iterative, so the check itself cannot overflow. */
export function nestsDeeperThan(value: unknown, max: number): boolean {
  const stack: [unknown, number][] = [[value, 1]];
  while (stack.length > 0) {
    const [node, depth] = stack.pop()!;
    if (typeof node !== "object" || node === null) continue;
    if (depth > max) return true;
    for (const child of Array.isArray(node) ? node : Object.values(node)) {
      if (typeof child === "object" && child !== null) stack.push([child, depth + 1]);
    }
  }
  return false;
}

export function tooDeep(what: string): string {
  return `${what} nests deeper than ${MAX_JSON_DEPTH} levels; refused`;
}

/** The failure that stands in for a reply nova refused, so its pending request is settled instead of left waiting. */
export function refusedReply(type: ReplyType, id: string, reason: string): Record<string, unknown> | undefined {
  switch (type) {
    case "host_tool_result":
      return { type, id, isError: true, result: { content: [{ type: "text", text: `the host's result was refused: ${reason}` }] } };
    case "host_uri_result":
      return { type, id, isError: true, error: `the host's answer was refused: ${reason}` };
    case "extension_ui_response":
      return { type, id, cancelled: true };
    default:
      return undefined;
  }
}

/** A problem with one host tool's `parameters`, or undefined. */
export function schemaProblem(parameters: unknown, index: number): string | undefined {
  const bytes = Buffer.byteLength(JSON.stringify(parameters));
  if (bytes > MAX_SCHEMA_BYTES) return `tools[${index}].parameters is ${bytes} bytes of JSON, more than the ${MAX_SCHEMA_BYTES} allowed`;
  return undefined;
}
