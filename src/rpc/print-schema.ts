/**
 * `--print-schema`: one JSON Schema 2020-12 document generated from the zod
 * schemas nova validates with (commands, replies) and describes its output
 * with (frames, response data), so a host in any language can check both
 * directions and generate its types. Names are PascalCase: `GetStateCommand`,
 * `GetStateData`, `GetStateResponse`, `HostToolResultReply`, `AgentEndFrame`,
 * shared pieces such as `AgentMessage` and `Model`; `Command`, `Reply`,
 * `Frame`, `Response` and `Inbound` are the unions (`oneOf`, told apart by `type`, a
 * response by `command` and `success`).
 */
import { z } from "zod";
import { commandSchema, commandTypes, replySchema, replyTypes, type CommandType } from "./commands.ts";
import { frameParts, frameSchemas, requestId } from "../core/frames.ts";
import { responseParts, responseSchema } from "./responses.ts";
import { PROTOCOL_VERSION } from "../core/protocol.ts";
import { versionInfo } from "../cli/version.ts";

const pascal = (snake: string) => snake.replace(/(^|_)([a-z])/g, (_, __, c: string) => c.toUpperCase());
const refs = (names: string[]) => ({ oneOf: names.map((name) => ({ $ref: `#/$defs/${name}` })) });

/** The shared pieces, named, so each is one `$defs` entry that frames and data refer to. */
function sharedNames(): [z.ZodType, string][] {
  const f = frameParts();
  const r = responseParts();
  return [
    [f.text, "TextContent"],
    [f.image, "ImageContent"],
    [f.thinking, "ThinkingContent"],
    [f.toolCall, "ToolCall"],
    [f.usage, "Usage"],
    [f.assistant, "AssistantMessage"],
    [f.toolResultMessage, "ToolResultMessage"],
    [f.message, "AgentMessage"],
    [f.toolResult, "ToolResult"],
    [f.blockEvent, "AssistantMessageEvent"],
    [f.compactionResult, "CompactionResult"],
    [f.todoPhase, "TodoPhase"],
    [r.model, "Model"],
    [r.thinkingLevel, "ThinkingLevel"],
    [r.disposition, "Disposition"],
    [r.fileChange, "FileChange"],
    [r.revertResult, "RevertResult"],
    [r.mcpCommand, "CommandInfo"],
    [r.sessionEntry, "SessionEntry"],
    [r.treeNode, "TreeNode"],
  ];
}

/** A command's success response frame, with its data when it has any. */
function responseFrame(type: CommandType): z.ZodType {
  const data = responseSchema(type);
  const base = { id: requestId().optional(), type: z.literal("response"), command: z.literal(type), success: z.literal(true) };
  return z.object(data ? { ...base, data } : base);
}

export function schemaDocument(): Record<string, unknown> {
  const registry = z.registry<{ id: string }>();
  const add = (schema: z.ZodType, id: string) => {
    if (!registry.has(schema)) registry.add(schema, { id });
  };
  for (const [schema, name] of sharedNames()) add(schema, name);
  const commands = commandTypes.map((type) => {
    add(commandSchema(type), `${pascal(type)}Command`);
    const data = responseSchema(type);
    if (data) add(data, `${pascal(type)}Data`);
    add(responseFrame(type), `${pascal(type)}Response`);
    return pascal(type);
  });
  // data shared by several commands (prompt, steer, ...) is one definition; each command's name points at it
  const aliases = commandTypes.flatMap((type) => {
    const data = responseSchema(type);
    const owner = data ? registry.get(data)?.id : undefined;
    return owner && owner !== `${pascal(type)}Data` ? [[`${pascal(type)}Data`, { $ref: `#/$defs/${owner}` }] as const] : [];
  });
  const replies = replyTypes.map((type) => (add(replySchema(type), `${pascal(type)}Reply`), `${pascal(type)}Reply`));
  const { response: responseUnion, ...events } = frameSchemas();
  const failure = responseUnion.options[1];
  add(failure, "ErrorResponse");
  const frames = Object.entries(events).map(([type, schema]) => (add(schema, `${pascal(type)}Frame`), `${pascal(type)}Frame`));

  const generated = z.toJSONSchema(registry, { uri: (id) => `#/$defs/${id}`, unrepresentable: "any", target: "draft-2020-12", io: "output" }).schemas;
  const inbound = z.toJSONSchema(registry, { uri: (id) => `#/$defs/${id}`, unrepresentable: "any", target: "draft-2020-12", io: "input" }).schemas;
  const $defs: Record<string, unknown> = {};
  for (const [name, schema] of Object.entries(generated)) {
    // commands and replies are what nova reads: described as input (defaults optional, unknown keys ignored)
    const chosen = name.endsWith("Command") || name.endsWith("Reply") ? inbound[name]! : schema;
    const { $schema: _, $id: __, ...rest } = chosen as Record<string, unknown>;
    $defs[name] = singleTypes(rest);
  }
  for (const [name, ref] of aliases) $defs[name] = ref;
  $defs.Command = refs(commands.map((n) => `${n}Command`));
  $defs.Reply = refs(replies);
  $defs.Inbound = refs(["Command", "Reply"]);
  $defs.Response = refs([...commands.map((n) => `${n}Response`), "ErrorResponse"]);
  $defs.Frame = refs(["Response", ...frames]);
  return {
    $schema: "https://json-schema.org/draft/2020-12/schema",
    description: `nova ${versionInfo().version}'s RPC protocol ${PROTOCOL_VERSION}: a line nova writes (Frame) or reads (Inbound: a Command or a Reply) in --mode rpc.`,
    oneOf: [{ $ref: "#/$defs/Frame" }, { $ref: "#/$defs/Inbound" }],
    $defs,
  };
}

/**
 * `type: ["string", "null"]` as `anyOf` of one type each: the same meaning,
 * and what Ajv's strict mode and most generators take without extra options.
 */
function singleTypes(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(singleTypes);
  if (typeof node !== "object" || node === null) return node;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) out[key] = singleTypes(value);
  if (Array.isArray(out.type)) {
    const { type, ...rest } = out;
    return { anyOf: (type as string[]).map((t) => ({ type: t })), ...rest };
  }
  return out;
}

export function printSchema(): string {
  return `${JSON.stringify(schemaDocument(), null, 2)}\n`;
}
