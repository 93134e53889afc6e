/**
 * One way to build a tool: a zod schema is the single source of truth for both
 * the JSON Schema the model sees and the check of the arguments it sends back.
 * The schema is handed over as a function and built on the tool's first call:
 * the JSON Schemas are baked in at build time, so a start that runs no tool
 * builds no tool schema.
 */
import { z } from "zod";
import type { Tool, ToolContext, ToolResult } from "./types.ts";
import { ToolError } from "./types.ts";

export interface ToolSpec<S extends z.ZodType> {
  name: string;
  label?: string;
  description: string;
  /** called once, on the tool's first call (or to generate its JSON Schema) */
  schema: () => S;
  /** whether a call may change files or the world (the permission gate and checkpoints read it) */
  mutating: boolean;
  run(args: z.infer<S>, ctx: ToolContext): Promise<ToolResult>;
}

/** JSON Schemas baked in by build.ts; absent when running from source. */
declare const NOVA_TOOL_PARAMETERS: Record<string, Record<string, unknown>> | undefined;

export function defineTool<S extends z.ZodType>(spec: ToolSpec<S>): Tool {
  let parameters: Record<string, unknown> | undefined;
  let built: S | undefined;
  const schema = () => (built ??= spec.schema());
  return {
    name: spec.name,
    label: spec.label ?? spec.name,
    description: spec.description,
    mutating: spec.mutating,
    // generated on first use: spawning nova must not pay for every tool's JSON Schema
    get parameters() {
      if (!parameters) {
        const baked = typeof NOVA_TOOL_PARAMETERS !== "undefined" ? NOVA_TOOL_PARAMETERS[spec.name] : undefined;
        const { $schema: _, ...rest } = baked ?? (z.toJSONSchema(schema()) as Record<string, unknown>);
        parameters = rest;
      }
      return parameters;
    },
    async execute(args, ctx) {
      return spec.run(parseArgs(spec.name, schema(), args), ctx);
    },
  };
}

/** Turns a zod failure into one sentence per bad field, e.g. `read: offset: Too small: expected number to be >=1 (got 0)`. */
export function parseArgs<S extends z.ZodType>(toolName: string, schema: S, args: unknown): z.infer<S> {
  const parsed = schema.safeParse(args);
  if (parsed.success) return parsed.data;
  const problems = parsed.error.issues.map((issue) => {
    const field = issue.path.length > 0 ? issue.path.join(".") : "arguments";
    return `${field}: ${issue.message}${describeInput(args, issue.path)}`;
  });
  throw new ToolError(`${toolName}: invalid arguments: ${problems.join("; ")}`);
}

function describeInput(args: unknown, path: PropertyKey[]): string {
  let value: unknown = args;
  for (const key of path) {
    if (value === null || typeof value !== "object") return "";
    value = (value as Record<PropertyKey, unknown>)[key];
  }
  if (value === undefined) return "";
  const shown = JSON.stringify(value) ?? String(value);
  return ` (got ${shown.length > 80 ? `${shown.slice(0, 80)}…` : shown})`;
}
