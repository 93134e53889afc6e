/**
 * zod schemas of every inbound frame: the single source of truth for what a
 * host may send. Types are inferred from them and `--print-schema` is
 * generated from them, so the docs, the validator and the code cannot drift.
 */
import { z } from "zod";
import { permissionModes, rememberScopes, thinkingLevels, todoStatuses } from "../core/enums.ts";
import { requestId } from "../core/frames.ts";
import { fastCheck, type SchemaNode } from "../core/fast-check.ts";

function command<T extends string, S extends z.ZodRawShape>(type: T, shape: S) {
  return z.object({ id: requestId().optional(), type: z.literal(type), ...shape });
}

const imageSchema = () =>
  z.object({
    type: z.literal("image").optional(),
    data: z.string(),
    mimeType: z.string().optional(),
    mime_type: z.string().optional(),
  });

const images = () => z.array(imageSchema()).optional();

/** What a prompt may ask of its run: an answer in a JSON Schema, and limits (docs/rpc.md "Structured output", "Budgets"). */
const runOptions = () => ({
  outputSchema: z.record(z.string(), z.unknown()).optional(),
  maxTurns: z.number().int().positive().optional(),
  maxCostUsd: z.number().positive().optional(),
  maxTokens: z.number().int().positive().optional(),
});
const queueMode = () => z.enum(["all", "one-at-a-time"]);
const todoStatus = () => z.enum(todoStatuses);

/**
 * One builder per command. A schema is built the first time its command
 * arrives (see `commandSchema`): building all of them at startup would cost
 * more than the rest of nova's start.
 */
const commandBuilders = {
  // prompting
  prompt: () => command("prompt", { message: z.string(), images: images(), streamingBehavior: z.enum(["steer", "followUp"]).optional(), ...runOptions() }),
  steer: () => command("steer", { message: z.string(), images: images() }),
  follow_up: () => command("follow_up", { message: z.string(), images: images(), ...runOptions() }),
  abort: () => command("abort", {}),
  abort_and_prompt: () => command("abort_and_prompt", { message: z.string(), images: images(), ...runOptions() }),
  permission_response: () =>
    command("permission_response", {
      requestId: z.union([z.string(), z.number()]),
      approved: z.boolean(),
      remember: z.enum(rememberScopes).optional(),
    }),
  new_session: () => command("new_session", { parentSession: z.string().optional(), background: z.boolean().optional() }),
  clear_queue: () => command("clear_queue", {}),
  // state
  get_state: () => command("get_state", {}),
  get_messages: () => command("get_messages", {}),
  get_last_assistant_text: () => command("get_last_assistant_text", {}),
  get_commands: () => command("get_commands", {}),
  get_available_commands: () => command("get_available_commands", {}),
  set_todos: () =>
    command("set_todos", {
      phases: z.array(
        z.object({
          name: z.string(),
          tasks: z.array(z.object({ content: z.string(), status: todoStatus() })),
        }),
      ),
    }),
  set_host_tools: () =>
    command("set_host_tools", {
      tools: z.array(
        z.object({
          name: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, "must be 1-64 letters, digits, _ or -"),
          label: z.string().optional(),
          description: z.string(),
          parameters: z.record(z.string(), z.unknown()),
          mutating: z.boolean().optional(),
        }),
      ),
    }),
  set_mcp_servers: () => command("set_mcp_servers", { servers: z.record(z.string(), z.unknown()) }),
  get_mcp_servers: () => command("get_mcp_servers", {}),
  set_host_uri_schemes: () =>
    command("set_host_uri_schemes", {
      schemes: z.array(
        z.object({
          scheme: z.string().regex(/^[A-Za-z][A-Za-z0-9+.-]*$/, 'must be a URL scheme such as "db"'),
          description: z.string().optional(),
          writable: z.boolean().optional(),
          immutable: z.boolean().optional(),
        }),
      ),
    }),
  set_subagent_subscription: () => command("set_subagent_subscription", { level: z.enum(["off", "progress", "events"]) }),
  get_subagents: () => command("get_subagents", {}),
  get_subagent_messages: () =>
    command("get_subagent_messages", {
      agentId: z.string().optional(),
      sessionFile: z.string().optional(),
      fromByte: z.number().int().nonnegative().optional(),
    }),
  // model and thinking
  set_model: () => command("set_model", { provider: z.string(), modelId: z.string() }),
  cycle_model: () => command("cycle_model", {}),
  get_available_models: () => command("get_available_models", {}),
  set_thinking_level: () => command("set_thinking_level", { level: z.enum(thinkingLevels) }),
  cycle_thinking_level: () => command("cycle_thinking_level", {}),
  get_available_thinking_levels: () => command("get_available_thinking_levels", {}),
  // queues
  set_steering_mode: () => command("set_steering_mode", { mode: queueMode() }),
  set_follow_up_mode: () => command("set_follow_up_mode", { mode: queueMode() }),
  set_interrupt_mode: () => command("set_interrupt_mode", { mode: z.enum(["immediate", "wait"]) }),
  // compaction and retry
  compact: () => command("compact", { customInstructions: z.string().optional() }),
  set_auto_compaction: () => command("set_auto_compaction", { enabled: z.boolean() }),
  set_auto_retry: () => command("set_auto_retry", { enabled: z.boolean() }),
  set_permission_mode: () => command("set_permission_mode", { mode: z.enum(permissionModes) }),
  set_tools: () => command("set_tools", { enabled: z.array(z.string()).optional(), disabled: z.array(z.string()).optional() }),
  abort_retry: () => command("abort_retry", {}),
  // bash
  bash: () => command("bash", { command: z.string(), excludeFromContext: z.boolean().optional() }),
  abort_bash: () => command("abort_bash", {}),
  // session
  get_session_stats: () => command("get_session_stats", {}),
  export_html: () => command("export_html", { outputPath: z.string().optional() }),
  switch_session: () => command("switch_session", { sessionId: z.string().optional(), sessionPath: z.string().optional() }),
  branch: () => command("branch", { entryId: z.string(), restoreFiles: z.boolean().optional() }),
  fork: () => command("fork", { entryId: z.string(), restoreFiles: z.boolean().optional() }),
  get_checkpoints: () => command("get_checkpoints", {}),
  get_turn_changes: () => command("get_turn_changes", { entryId: z.string() }),
  revert: () =>
    command("revert", {
      entryId: z.string(),
      dryRun: z.boolean().optional(),
      paths: z.array(z.string()).optional(),
      force: z.boolean().optional(),
    }),
  clone: () => command("clone", {}),
  get_branch_messages: () => command("get_branch_messages", {}),
  get_fork_messages: () => command("get_fork_messages", {}),
  get_entries: () => command("get_entries", { since: z.string().optional() }),
  get_tree: () => command("get_tree", {}),
  set_session_name: () => command("set_session_name", { name: z.string() }),
  handoff: () => command("handoff", { customInstructions: z.string().optional() }),
  get_background_sessions: () => command("get_background_sessions", {}),
  cancel_background_session: () => command("cancel_background_session", { sessionId: z.string() }),
  // login
  get_login_providers: () => command("get_login_providers", {}),
  login: () => command("login", { providerId: z.string() }),
};

/** Frames that answer a request nova made; they get no response of their own. */
const replyBuilders = {
  extension_ui_response: () =>
    z.object({
      type: z.literal("extension_ui_response"),
      id: z.string(),
      value: z.unknown().optional(),
      confirmed: z.boolean().optional(),
      cancelled: z.boolean().optional(),
      timedOut: z.boolean().optional(),
    }),
  host_tool_update: () =>
    z.object({
      type: z.literal("host_tool_update"),
      id: z.string(),
      partialResult: z.object({ content: z.array(z.unknown()).optional(), details: z.unknown().optional() }).loose(),
    }),
  host_tool_result: () =>
    z.object({
      type: z.literal("host_tool_result"),
      id: z.string(),
      result: z.object({ content: z.array(z.unknown()).optional(), details: z.unknown().optional() }).loose(),
      isError: z.boolean().optional(),
    }),
  host_uri_result: () =>
    z.object({
      type: z.literal("host_uri_result"),
      id: z.string(),
      content: z.string().optional(),
      contentType: z.string().optional(),
      notes: z.array(z.string()).optional(),
      immutable: z.boolean().optional(),
      isError: z.boolean().optional(),
      error: z.string().optional(),
    }),
};

export type CommandType = keyof typeof commandBuilders;
export type CommandOf<K extends CommandType> = z.infer<ReturnType<(typeof commandBuilders)[K]>>;
export type Command = { [K in CommandType]: CommandOf<K> }[CommandType];
export type ReplyType = keyof typeof replyBuilders;
export type ReplyOf<K extends ReplyType> = z.infer<ReturnType<(typeof replyBuilders)[K]>>;
export type ImageInput = z.infer<ReturnType<typeof imageSchema>>;

const built = new Map<string, z.ZodType>();

function memo<T extends Record<string, () => z.ZodType>>(builders: T, type: keyof T & string): z.ZodType {
  let schema = built.get(type);
  if (!schema) {
    schema = builders[type]!();
    built.set(type, schema);
  }
  return schema;
}

export function isCommandType(type: string): type is CommandType {
  return Object.hasOwn(commandBuilders, type);
}

export function isReplyType(type: string): type is ReplyType {
  return Object.hasOwn(replyBuilders, type);
}

/** A command's schema, typed: its parse yields `CommandOf<K>`. */
export function commandSchema<K extends CommandType>(type: K): z.ZodType<CommandOf<K>> {
  return memo(commandBuilders, type) as z.ZodType<CommandOf<K>>;
}

export function replySchema<K extends ReplyType>(type: K): z.ZodType<ReplyOf<K>> {
  return memo(replyBuilders, type) as z.ZodType<ReplyOf<K>>;
}

/** Every command's schema as JSON Schema text, baked in by build.ts (parsed on the command's first use); absent when running from source. */
declare const NOVA_COMMAND_SCHEMAS: Record<string, string> | undefined;
const bakedCommandSchemas = typeof NOVA_COMMAND_SCHEMAS !== "undefined" ? NOVA_COMMAND_SCHEMAS : undefined;

/** A command's input side as JSON Schema, for core/fast-check.ts (build.ts bakes all of them in). */
export function commandJsonSchema(type: CommandType): SchemaNode {
  return z.toJSONSchema(commandSchema(type), { io: "input" }) as SchemaNode;
}

const jsonSchemas = new Map<string, SchemaNode>();

/**
 * A command checked against its schema: walked against the baked JSON Schema
 * (core/fast-check.ts), so the first commands of a start do not build zod
 * schemas; a frame the walk does not accept goes through zod, which words
 * the refusal.
 */
export function parseCommand<K extends CommandType>(type: K, frame: unknown): { success: true; data: CommandOf<K> } | { success: false; error: z.ZodError } {
  let json = jsonSchemas.get(type);
  if (!json) {
    const baked = bakedCommandSchemas?.[type];
    json = baked ? (JSON.parse(baked) as SchemaNode) : commandJsonSchema(type);
    jsonSchemas.set(type, json);
  }
  const checked = fastCheck(json, frame);
  if (checked !== undefined) return { success: true, data: checked as CommandOf<K> };
  const parsed = commandSchema(type).safeParse(frame, { reportInput: true });
  return parsed.success ? { success: true, data: parsed.data } : { success: false, error: parsed.error };
}

export const commandTypes = Object.keys(commandBuilders) as CommandType[];
export const replyTypes = Object.keys(replyBuilders) as ReplyType[];

/** Long-running commands: dispatched without holding up the reading of later ones. */
export const concurrentCommands: ReadonlySet<CommandType> = new Set(["bash", "compact", "login", "export_html", "handoff", "cancel_background_session"]);
