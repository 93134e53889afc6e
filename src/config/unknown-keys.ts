/**
 * The message for a key the config schema does not know: the full path, and
 * the nearest known key when one is close enough to be a typo. The known keys
 * are read from the zod schema itself, so a field added there is known here.
 */
import type { z } from "zod/mini";

type Def = { type: string; shape?: Record<string, unknown>; valueType?: unknown; element?: unknown; innerType?: unknown };

function defOf(schema: unknown): Def | undefined {
  return (schema as { _zod?: { def?: Def } })?._zod?.def;
}

/** The object schema's keys at `path` (record keys and array indices step into their values). */
export function knownKeys(schema: unknown, path: PropertyKey[]): string[] {
  let node = schema;
  let rest = [...path];
  for (;;) {
    const def = defOf(node);
    if (!def) return [];
    if (def.type === "default" || def.type === "optional" || def.type === "nullable" || def.type === "prefault") {
      node = def.innerType;
      continue;
    }
    if (rest.length === 0) return def.type === "object" && def.shape ? Object.keys(def.shape) : [];
    const [key, ...tail] = rest;
    if (def.type === "object" && def.shape) node = def.shape[String(key)];
    else if (def.type === "record") node = def.valueType;
    else if (def.type === "array") node = def.element;
    else return [];
    rest = tail;
  }
}

/** Edit distance, for "did you mean". */
export function distance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let previous = row[0]!;
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const saved = row[j]!;
      row[j] = Math.min(row[j]! + 1, row[j - 1]! + 1, previous + (a[i - 1]!.toLowerCase() === b[j - 1]!.toLowerCase() ? 0 : 1));
      previous = saved;
    }
  }
  return row[b.length]!;
}

/** The known key a typo most likely meant, if any is close. */
export function nearest(key: string, known: string[]): string | undefined {
  let best: { key: string; d: number } | undefined;
  for (const candidate of known) {
    const d = distance(key, candidate);
    if (!best || d < best.d) best = { key: candidate, d };
  }
  return best && best.d <= Math.max(2, Math.floor(best.key.length / 3)) ? best.key : undefined;
}

/** `providers.local.modles: unknown key; did you mean "models"?` */
export function unknownKeyMessage(schema: z.ZodMiniType, path: PropertyKey[], key: string): string {
  const known = knownKeys(schema, path);
  const full = [...path, key].map((k, i) => (typeof k === "number" ? `[${k}]` : i === 0 ? String(k) : `.${String(k)}`)).join("");
  const guess = nearest(key, known);
  if (guess) return `${full}: unknown key; did you mean "${guess}"?`;
  return known.length > 0 ? `${full}: unknown key; known keys here: ${known.join(", ")}` : `${full}: unknown key`;
}
