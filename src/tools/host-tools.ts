/**
 * Tools the host defines (`set_host_tools`) and executes itself. nova checks
 * the model's arguments against the tool's JSON Schema before forwarding, so
 * the host only ever sees calls that fit its own definition.
 */
import { z } from "zod";
import type { Tool, ToolContext, ToolResult } from "./types.ts";
import { ToolError } from "./types.ts";

export interface HostToolDefinition {
  name: string;
  label?: string;
  description: string;
  parameters: Record<string, unknown>;
  /** true: a call changes something, so the permission gate asks first (and plan mode refuses it) */
  mutating?: boolean;
}

/** Sends one call to the host and resolves with its result. */
export type HostToolCaller = (call: { toolCallId: string; toolName: string; arguments: Record<string, unknown> }, ctx: ToolContext) => Promise<ToolResult>;

export function hostTool(definition: HostToolDefinition, caller: HostToolCaller): Tool {
  let schema: z.ZodType | undefined;
  return {
    name: definition.name,
    label: definition.label ?? definition.name,
    description: definition.description,
    parameters: definition.parameters,
    ...(definition.mutating === undefined ? {} : { mutating: definition.mutating }),
    async execute(args, ctx) {
      schema ??= compile(definition);
      const parsed = schema.safeParse(args);
      if (!parsed.success) {
        const problems = parsed.error.issues.map((i) => `${i.path.length > 0 ? i.path.join(".") : "arguments"}: ${i.message}`);
        throw new ToolError(`${definition.name}: invalid arguments: ${problems.join("; ")}`);
      }
      return caller({ toolCallId: ctx.toolCallId ?? "", toolName: definition.name, arguments: args }, ctx);
    },
  };
}

/** Compiles the host's JSON Schema; a schema zod cannot read only loses the check, not the tool. */
function compile(definition: HostToolDefinition): z.ZodType {
  try {
    return z.fromJSONSchema(definition.parameters as Parameters<typeof z.fromJSONSchema>[0]);
  } catch (error) {
    process.stderr.write(`nova: host tool ${definition.name}: its parameters schema cannot be checked (${(error as Error).message}); arguments are forwarded unchecked\n`);
    return z.record(z.string(), z.unknown());
  }
}
