/**
 * The one-sentence zod error nova gives for a bad command, a bad ACP param and
 * a bad config file alike: the field, what was expected and what arrived.
 */
import type { z } from "zod";

/** One sentence naming the field, what was expected and what arrived. */
export function describeIssue(issue: z.core.$ZodIssue): string {
  const path = formatPath(issue.path);
  const input = (issue as { input?: unknown }).input;
  switch (issue.code) {
    case "invalid_type":
      if (input === undefined) return `${path} is required`;
      return `${path} must be ${article(issue.expected)}, got ${show(input)}`;
    case "invalid_value":
      return `${path} must be ${issue.values.length === 1 ? "" : "one of "}${issue.values.map((v) => JSON.stringify(v)).join(", ")}, got ${show(input)}`;
    case "invalid_union": {
      const types = simpleTypes(issue.errors);
      if (types) return `${path} must be ${types.map(article).join(" or ")}, got ${show(input)}`;
      return `${path} has an unexpected shape, got ${show(input)}`;
    }
    default:
      return `${path} ${issue.message}${input === undefined ? "" : `, got ${show(input)}`}`;
  }
}

/** The types a union of plain types (string | number) takes, when every branch failed only on its type. */
function simpleTypes(branches: z.core.$ZodIssue[][]): string[] | undefined {
  const types = branches.map((issues) => {
    const [only] = issues;
    return issues.length === 1 && only?.code === "invalid_type" && only.path.length === 0 ? only.expected : undefined;
  });
  return types.length > 0 && types.every((t) => t !== undefined) ? (types as string[]) : undefined;
}

function formatPath(path: PropertyKey[]): string {
  let out = "";
  for (const key of path) out += typeof key === "number" ? `[${key}]` : out ? `.${String(key)}` : String(key);
  return out || "command";
}

function article(type: string): string {
  return /^[aeiou]/.test(type) ? `an ${type}` : `a ${type}`;
}

function show(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  if (typeof value === "object") return "an object";
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}
