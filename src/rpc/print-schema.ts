/**
 * `--print-schema`: JSON Schema of every frame, generated from the zod schemas
 * nova validates with (commands, replies) and describes its output with
 * (events), so a host in any language can check both directions.
 */
import { z } from "zod";
import { commandSchema, commandTypes, replySchema, replyTypes } from "./commands.ts";
import { frameSchemas } from "../core/frames.ts";

export function printSchema(): string {
  const schema = (s: z.ZodType) => z.toJSONSchema(s, { unrepresentable: "any", io: "input" });
  const commands = Object.fromEntries(commandTypes.map((k) => [k, schema(commandSchema(k))]));
  const replies = Object.fromEntries(replyTypes.map((k) => [k, schema(replySchema(k))]));
  const events = Object.fromEntries(Object.entries(frameSchemas()).map(([k, s]) => [k, schema(s)]));
  return JSON.stringify({ $schema: "https://json-schema.org/draft/2020-12/schema", title: "nova RPC", commands, replies, events }, null, 2) + "\n";
}
