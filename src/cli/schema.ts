/** `--print-schema`: JSON Schema of every inbound frame, generated from the zod schemas. */
import { z } from "zod";
import { commandSchema, commandTypes, replySchema, replyTypes } from "../rpc/commands.ts";

export function printSchema(): string {
  const schema = (s: z.ZodType) => z.toJSONSchema(s, { unrepresentable: "any", io: "input" });
  const commands = Object.fromEntries(commandTypes.map((k) => [k, schema(commandSchema(k))]));
  const replies = Object.fromEntries(replyTypes.map((k) => [k, schema(replySchema(k))]));
  return JSON.stringify({ $schema: "https://json-schema.org/draft/2020-12/schema", title: "nova RPC", commands, replies }, null, 2) + "\n";
}
