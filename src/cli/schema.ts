/** `--print-schema`: JSON Schema of every inbound frame, generated from the zod schemas. */
import { z } from "zod";
import { commandSchemas, replySchemas } from "../rpc/commands.ts";

export function printSchema(): string {
  const schema = (s: z.ZodType) => z.toJSONSchema(s, { unrepresentable: "any", io: "input" });
  const commands = Object.fromEntries(Object.entries(commandSchemas).map(([k, s]) => [k, schema(s)]));
  const replies = Object.fromEntries(Object.entries(replySchemas).map(([k, s]) => [k, schema(s)]));
  return JSON.stringify({ $schema: "https://json-schema.org/draft/2020-12/schema", title: "nova RPC", commands, replies }, null, 2) + "\n";
}
