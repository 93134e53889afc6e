/**
 * Commands are checked by core/fast-check.ts against their baked JSON Schema
 * before zod is asked: both must agree on every frame, and nothing zod checks
 * may be missing from the JSON Schema (a refinement or transform would be).
 */
import { describe, expect, test } from "bun:test";
import { fastCheck, type SchemaNode } from "../../src/core/fast-check.ts";
import { commandJsonSchema, commandSchema, commandTypes, parseCommand } from "../../src/rpc/commands.ts";
import { configSchema } from "../../src/config/schema.ts";
import { mutated } from "../support/mutate.ts";

/** One value the node takes; `full` fills the optional keys too. */
function sample(node: SchemaNode, full: boolean): unknown {
  if ("const" in node) return node.const;
  if (node.enum) return node.enum[0];
  const type = Array.isArray(node.type) ? node.type[0] : node.type;
  switch (type) {
    case "object": {
      if (!node.properties) return { k: node.additionalProperties && typeof node.additionalProperties === "object" ? sample(node.additionalProperties, full) : 1 };
      const keys = Object.keys(node.properties).filter((key) => full || node.required?.includes(key));
      return Object.fromEntries(keys.map((key) => [key, sample(node.properties![key]!, full)]));
    }
    case "array":
      return node.items ? [sample(node.items, full)] : [];
    case "string":
      return node.pattern ? "a" : "text";
    case "integer":
    case "number":
      return 3;
    case "boolean":
      return true;
    default:
      return { any: "thing" };
  }
}

/** The kinds of zod node a JSON Schema cannot carry: their checks would be skipped by the fast path. */
function unrepresented(schema: unknown, path = "", seen = new Set<unknown>()): string[] {
  const def = (schema as { _zod?: { def?: Record<string, unknown> } })?._zod?.def;
  if (!def || seen.has(def)) return [];
  seen.add(def);
  const found: string[] = [];
  if (["pipe", "transform", "custom", "lazy", "promise", "catch", "prefault", "success"].includes(def.type as string)) found.push(`${path}: ${def.type}`);
  for (const check of (def.checks as { _zod: { def: { check: string } } }[] | undefined) ?? []) if (check._zod.def.check === "custom") found.push(`${path}: refine`);
  for (const [key, child] of Object.entries(def)) {
    if (key === "shape" && child && typeof child === "object") for (const [name, value] of Object.entries(child)) found.push(...unrepresented(value, `${path}.${name}`, seen));
    else if (Array.isArray(child)) for (const [i, item] of child.entries()) found.push(...unrepresented(item, `${path}[${i}]`, seen));
    else found.push(...unrepresented(child, `${path}.${key}`, seen));
  }
  return found;
}

describe("commands through the fast check", () => {
  test("no command or config schema holds a check JSON Schema cannot carry", () => {
    const found = [...commandTypes.flatMap((type) => unrepresented(commandSchema(type), type)), ...unrepresented(configSchema(), "config")];
    expect(found).toEqual([]);
  });

  test("hosts' real frames: extra keys are dropped as zod drops them, ids of both kinds kept", () => {
    for (const frame of [
      { id: "1", type: "get_state" },
      { id: 7, type: "get_state", extra: true },
      { type: "prompt", message: "hi", images: [{ type: "image", data: "AAAA", mimeType: "image/png" }], streamingBehavior: "steer", piOnly: 1 },
      { type: "set_model", provider: "a", modelId: "b" },
    ]) {
      const type = frame.type as (typeof commandTypes)[number];
      const fast = parseCommand(type, frame);
      const zod = commandSchema(type).safeParse(frame);
      expect<unknown>(fast).toEqual({ success: true, data: zod.data });
      expect(Object.keys(fast.success ? fast.data : {})).toEqual(Object.keys(zod.data as object));
    }
  });

  test("every command, its full and its least frame and thousands of near misses: same answer as zod", () => {
    const valid = commandTypes.flatMap((type) => [sample(commandJsonSchema(type), true), sample(commandJsonSchema(type), false)]);
    let accepted = 0;
    let refused = 0;
    for (const frame of [...valid, ...mutated(valid, 6000, ["extra", "id", "message", "type"])]) {
      const type = (frame as { type?: unknown })?.type;
      if (typeof type !== "string" || !commandTypes.includes(type as (typeof commandTypes)[number])) continue;
      const command = type as (typeof commandTypes)[number];
      const zod = commandSchema(command).safeParse(frame, { reportInput: true });
      const ours = parseCommand(command, frame);
      expect(ours.success).toBe(zod.success);
      if (zod.success) {
        accepted++;
        // the fast path itself takes every frame zod takes: zod is only asked to word a refusal
        expect(fastCheck(commandJsonSchema(command), frame)).toStrictEqual(zod.data as unknown);
        expect(ours.success ? (ours.data as unknown) : undefined).toStrictEqual(zod.data as unknown);
      } else {
        refused++;
        expect(ours.success ? [] : ours.error.issues).toEqual(zod.error.issues);
      }
    }
    expect(accepted).toBeGreaterThan(1000);
    expect(refused).toBeGreaterThan(1000);
  });
});
