/**
 * A value checked without building its zod schema: it is walked against the
 * JSON Schema `z.toJSONSchema` made of that zod schema (baked in by build.ts,
 * or made on demand from source), and defaults are filled in and unknown keys
 * of a plain `z.object` dropped as zod does. Building a zod schema costs
 * milliseconds (the config file's, the first command's) on the way to a
 * start's first answer; this walk costs microseconds.
 *
 * It only ever says yes: anything it does not accept, or a keyword it does
 * not know, returns undefined and the caller asks zod, so every refusal and
 * its message still come from the zod schema (test/core/fast-check.test.ts
 * and test/config/fast-check.test.ts check that both agree).
 */

type TypeName = "object" | "array" | "string" | "integer" | "number" | "boolean";

/** The subset of JSON Schema `z.toJSONSchema` writes for nova's config and command schemas. */
export interface SchemaNode {
  type?: TypeName | TypeName[];
  properties?: Record<string, SchemaNode>;
  required?: string[];
  additionalProperties?: boolean | SchemaNode;
  propertyNames?: SchemaNode;
  items?: SchemaNode;
  enum?: unknown[];
  const?: unknown;
  minLength?: number;
  pattern?: string;
  format?: string;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  default?: unknown;
}

const KNOWN = new Set([
  "$schema",
  "type",
  "properties",
  "required",
  "additionalProperties",
  "propertyNames",
  "items",
  "enum",
  "const",
  "minLength",
  "pattern",
  "format",
  "minimum",
  "maximum",
  "exclusiveMinimum",
  "default",
]);

/** Marks "not accepted here": a value itself may be undefined. */
const NO = Symbol("no");

const patterns = new Map<string, RegExp>();

/** The value with defaults filled in, or undefined when zod must decide. */
export function fastCheck(schema: SchemaNode, value: unknown): unknown {
  const out = check(schema, value);
  return out === NO ? undefined : out;
}

function check(node: SchemaNode, value: unknown): unknown {
  for (const key in node) if (!KNOWN.has(key)) return NO;
  if (value === undefined) return "default" in node ? structuredClone(node.default) : NO;
  if (node.enum && !node.enum.includes(value)) return NO;
  if ("const" in node && node.const !== value) return NO;
  // a union of primitives (`z.union([z.string(), z.number()])`): the first type that takes it, as zod tries them
  if (Array.isArray(node.type)) {
    for (const type of node.type) {
      const checked = check({ ...node, type }, value);
      if (checked !== NO) return checked;
    }
    return NO;
  }
  switch (node.type) {
    case "object":
      return object(node, value);
    case "array": {
      if (!Array.isArray(value) || !node.items) return NO;
      const out: unknown[] = [];
      for (const item of value) {
        const checked = check(node.items, item);
        if (checked === NO) return NO;
        out.push(checked);
      }
      return out;
    }
    case "string":
      return typeof value === "string" && string(node, value) ? value : NO;
    case "integer":
      return typeof value === "number" && Number.isInteger(value) && bounded(node, value) ? value : NO;
    case "number":
      return typeof value === "number" && Number.isFinite(value) && bounded(node, value) ? value : NO;
    case "boolean":
      return typeof value === "boolean" ? value : NO;
    case undefined:
      // `z.unknown()`: anything, as it is (an enum or const above has checked it)
      return Object.keys(node).some((key) => key !== "default" && key !== "enum" && key !== "const") ? NO : value;
    default:
      return NO;
  }
}

function object(node: SchemaNode, value: unknown): unknown {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return NO;
  const input = value as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  if (node.properties) {
    // a fixed shape: its keys in the shape's order, as zod writes them; a strict one
    // (additionalProperties false) refuses other keys, a plain z.object drops them
    if ((node.additionalProperties !== undefined && node.additionalProperties !== false) || node.propertyNames) return NO;
    if (node.additionalProperties === false) for (const key of Object.keys(input)) if (!Object.hasOwn(node.properties, key)) return NO;
    for (const [key, child] of Object.entries(node.properties)) {
      const present = Object.hasOwn(input, key);
      if (!present && !("default" in child)) {
        if (node.required?.includes(key)) return NO;
        continue;
      }
      const checked = check(child, input[key]);
      if (checked === NO) return NO;
      out[key] = checked;
    }
    return out;
  }
  // a record: every key checked by propertyNames, every value by additionalProperties, in the file's order
  const values = node.additionalProperties;
  if (typeof values !== "object" || node.required) return NO;
  for (const [key, item] of Object.entries(input)) {
    // an own "__proto__" key (JSON.parse makes one) is zod's to handle
    if (key === "__proto__") return NO;
    if (node.propertyNames && check(node.propertyNames, key) === NO) return NO;
    const checked = check(values, item);
    if (checked === NO) return NO;
    out[key] = checked;
  }
  return out;
}

function string(node: SchemaNode, value: string): boolean {
  if (node.minLength !== undefined && value.length < node.minLength) return false;
  if (node.pattern !== undefined) {
    let pattern = patterns.get(node.pattern);
    if (!pattern) patterns.set(node.pattern, (pattern = new RegExp(node.pattern)));
    if (!pattern.test(value)) return false;
  }
  if (node.format === undefined) return true;
  // z.url(): zod trims and drops tabs and newlines before it parses; a value it would change is left to zod
  return node.format === "uri" && !/^\s|\s$|[\t\n\r]/.test(value) && URL.canParse(value);
}

function bounded(node: SchemaNode, value: number): boolean {
  if (node.minimum !== undefined && value < node.minimum) return false;
  if (node.maximum !== undefined && value > node.maximum) return false;
  return node.exclusiveMinimum === undefined || value > node.exclusiveMinimum;
}
