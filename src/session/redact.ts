/**
 * Removes secrets from text that leaves the machine (HTML exports): the exact
 * values nova knows (configured API keys) plus the shapes keys commonly take,
 * since a user may paste a key nova never saw into a prompt.
 */

export const REDACTED = "[redacted]";

const KEY_SHAPES = [/\bsk-(?:ant-)?[A-Za-z0-9_-]{16,}/g, /\bAIza[A-Za-z0-9_-]{20,}/g];
const BEARER = /\b(Bearer\s+)[A-Za-z0-9._~+/=-]{8,}/g;

export type Redactor = (text: string) => string;

/** Builds one function that applies every rule, so the secrets regex is compiled once. */
export function makeRedactor(secrets: readonly string[]): Redactor {
  // every length counts: a short key is still a key (the config decides what is a secret)
  const exact = [...new Set(secrets.filter((secret) => secret.length > 0))]
    // Longest first so a secret containing another is removed whole.
    .sort((a, b) => b.length - a.length)
    .map(escapeRegExp);
  const exactPattern = exact.length > 0 ? new RegExp(exact.join("|"), "g") : undefined;
  return (text) => {
    let out = exactPattern ? text.replace(exactPattern, REDACTED) : text;
    for (const shape of KEY_SHAPES) out = out.replace(shape, REDACTED);
    return out.replace(BEARER, `$1${REDACTED}`);
  };
}

/** Redacts every string (keys included) in a JSON-like value. */
export function redactDeep(value: unknown, redact: Redactor): unknown {
  if (typeof value === "string") return redact(value);
  if (Array.isArray(value)) return value.map((item) => redactDeep(item, redact));
  if (typeof value === "object" && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [redact(key), redactDeep(item, redact)]));
  }
  return value;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
