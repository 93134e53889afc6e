/**
 * zod schemas of every command's success `data`: what `--print-schema` calls
 * `<Name>Data` and what the typed client's `request()` resolves to. `null`
 * marks a command whose success response carries no `data`. Built only when
 * asked for (the schema printer, the client's types, the tests): nothing on
 * the hot path validates its own output.
 */
import { z } from "zod";
import { once } from "../core/once.ts";
import { apiNames, permissionModes, sandboxModes, thinkingLevels } from "../core/enums.ts";
import { frameParts } from "../core/frames.ts";
import type { CommandType } from "./commands.ts";

/** Schemas more than one command's data uses; each becomes one `$defs` entry. */
export const responseParts = once(() => {
  const { message, todoPhase, compactionResult, usage, text, image } = frameParts();
  const thinkingLevel = z.enum(thinkingLevels);
  const model = z.object({
    id: z.string(),
    name: z.string(),
    api: z.enum(apiNames),
    provider: z.string(),
    baseUrl: z.string(),
    reasoning: z.boolean(),
    thinkingLevels: z.array(thinkingLevel).optional(),
    input: z.array(z.enum(["text", "image"])),
    contextWindow: z.number(),
    maxTokens: z.number(),
    cost: z.object({ input: z.number(), output: z.number(), cacheRead: z.number(), cacheWrite: z.number() }),
    replayReasoning: z.boolean().optional(),
    tools: z.boolean().optional(),
    discovered: z.boolean().optional(),
  });
  const disposition = z.object({ agentInvoked: z.boolean(), disposition: z.enum(["started", "queued"]) });
  const cancelled = z.object({ cancelled: z.boolean() });
  const fileChange = z.object({ path: z.string(), change: z.enum(["added", "modified", "deleted", "renamed"]), from: z.string().optional() });
  const pathReason = z.object({ path: z.string(), reason: z.string() });
  const revertResult = z.object({ restored: z.array(z.string()), conflicts: z.array(pathReason), skipped: z.array(pathReason) });
  const mcpCommand = z.object({
    source: z.string(),
    name: z.string(),
    description: z.string(),
    arguments: z.array(z.object({ name: z.string(), description: z.string().optional(), required: z.boolean() })),
  });
  const content = z.union([z.string(), z.array(z.discriminatedUnion("type", [text, image]))]);
  const entryBase = { id: z.string(), parentId: z.string().nullable(), timestamp: z.string() };
  const entry = <T extends string, S extends z.ZodRawShape>(type: T, shape: S) => z.object({ type: z.literal(type), ...entryBase, ...shape });
  const systemMessage = z.object({
    role: z.literal("system"),
    content: z.string(),
    sections: z.record(z.string(), z.string().nullable()).optional(),
    toolsAdded: z.array(z.unknown()).optional(),
    toolsRemoved: z.array(z.unknown()).optional(),
    timestamp: z.number(),
  });
  /** One line of a session file (Pi's version-3 entries); an entry of a type nova does not know is passed on as read. */
  const sessionEntry = z.discriminatedUnion("type", [
    entry("message", { message: z.union([message, systemMessage]) }),
    entry("model_change", { provider: z.string(), modelId: z.string() }),
    entry("thinking_level_change", { thinkingLevel }),
    entry("compaction", {
      summary: z.string(),
      firstKeptEntryId: z.string(),
      tokensBefore: z.number(),
      systemMessage: systemMessage.optional(),
      usage: usage.optional(),
      details: z.unknown().optional(),
      fromHook: z.boolean().optional(),
    }),
    entry("branch_summary", { fromId: z.string(), summary: z.string() }),
    entry("session_info", { name: z.string() }),
    entry("label", { targetId: z.string(), label: z.string().optional() }),
    entry("context_edit", { targetId: z.string(), replacement: z.object({ content }).nullable() }),
    entry("custom_message", { customType: z.string(), content, display: z.boolean(), details: z.unknown().optional() }),
    entry("custom", { customType: z.string(), data: z.unknown().optional() }),
    entry("usage", { kind: z.string(), provider: z.string(), model: z.string(), usage }),
  ]);
  const treeNode: z.ZodType<TreeNodeShape> = z.object({
    entry: sessionEntry,
    get children() {
      return z.array(treeNode);
    },
    label: z.string().optional(),
    labelTimestamp: z.string().optional(),
  });
  const entryText = z.object({ entryId: z.string(), text: z.string() });
  return { model, thinkingLevel, disposition, cancelled, fileChange, revertResult, mcpCommand, sessionEntry, treeNode, entryText, message, todoPhase, compactionResult };
});

interface TreeNodeShape {
  entry: z.infer<ReturnType<typeof responseParts>["sessionEntry"]>;
  children: TreeNodeShape[];
  label?: string;
  labelTimestamp?: string;
}

const builders = once(() => {
  const p = responseParts();
  const messages = z.object({ messages: z.array(p.message) });
  const commands = z.object({ commands: z.array(p.mcpCommand) });
  const branched = z.object({ text: z.string(), cancelled: z.boolean(), files: p.revertResult.optional() });
  const entryTexts = z.object({ messages: z.array(p.entryText) });
  const queueMode = z.enum(["all", "one-at-a-time"]);
  const todos = z.object({ phases: z.array(p.todoPhase) });
  const tokens = z.object({ input: z.number(), output: z.number(), cacheRead: z.number(), cacheWrite: z.number(), total: z.number() });
  const contextUsage = z.object({ tokens: z.number(), contextWindow: z.number(), percent: z.number() });
  const table = {
    prompt: p.disposition,
    steer: p.disposition,
    follow_up: p.disposition,
    abort: null,
    abort_and_prompt: p.disposition,
    permission_response: null,
    new_session: p.cancelled,
    clear_queue: z.object({ steering: z.array(z.string()), followUp: z.array(z.string()) }),
    get_state: z.object({
      model: p.model.nullable(),
      thinkingLevel: p.thinkingLevel,
      isStreaming: z.boolean(),
      isCompacting: z.boolean(),
      steeringMode: queueMode,
      followUpMode: queueMode,
      interruptMode: z.enum(["immediate", "wait"]),
      sessionFile: z.string().optional(),
      sessionId: z.string(),
      sessionName: z.string().optional(),
      autoCompactionEnabled: z.boolean(),
      autoRetryEnabled: z.boolean(),
      permissionMode: z.enum(permissionModes),
      messageCount: z.number(),
      pendingMessageCount: z.number(),
      queuedMessageCount: z.number(),
      todoPhases: z.array(p.todoPhase),
      systemPrompt: z.array(z.string()),
      dumpTools: z.array(z.object({ name: z.string(), description: z.string(), parameters: z.record(z.string(), z.unknown()) })),
      contextUsage: contextUsage.nullable(),
      checkpoints: z.object({ enabled: z.boolean(), reason: z.string().optional(), store: z.string().optional() }),
      sandbox: z.object({
        mode: z.enum(sandboxModes),
        network: z.boolean(),
        writablePaths: z.array(z.string()),
        active: z.boolean(),
        backend: z.enum(["bubblewrap", "seatbelt"]).optional(),
        warning: z.string().optional(),
      }),
    }),
    get_messages: messages,
    get_last_assistant_text: z.object({ text: z.string().nullable() }),
    get_commands: commands,
    get_available_commands: commands,
    set_todos: todos,
    set_host_tools: z.object({ toolNames: z.array(z.string()) }),
    set_mcp_servers: z.object({ serverNames: z.array(z.string()) }),
    get_mcp_servers: z.object({
      servers: z.array(
        z.object({
          name: z.string(),
          source: z.enum(["config", "rpc", "acp"]),
          status: z.enum(["connecting", "connected", "failed", "disabled"]),
          tools: z.array(z.string()),
          error: z.string().optional(),
        }),
      ),
    }),
    set_host_uri_schemes: z.object({ schemes: z.array(z.string()) }),
    set_subagent_subscription: z.object({ level: z.enum(["off", "progress", "events"]) }),
    get_subagents: z.object({
      subagents: z.array(
        z.object({
          agentId: z.string(),
          sessionFile: z.string().optional(),
          task: z.string(),
          depth: z.number(),
          status: z.enum(["queued", "running", "completed", "failed", "aborted"]),
          startedAt: z.string(),
          endedAt: z.string().optional(),
        }),
      ),
    }),
    get_subagent_messages: z.object({ agentId: z.string().optional(), sessionFile: z.string().optional(), messages: z.array(p.message), nextByte: z.number() }),
    set_model: p.model,
    cycle_model: z.object({ model: p.model, thinkingLevel: p.thinkingLevel, isScoped: z.boolean() }).nullable(),
    get_available_models: z.object({ models: z.array(p.model) }),
    set_thinking_level: null,
    cycle_thinking_level: z.object({ level: p.thinkingLevel }).nullable(),
    get_available_thinking_levels: z.object({ levels: z.array(p.thinkingLevel) }),
    set_steering_mode: null,
    set_follow_up_mode: null,
    set_interrupt_mode: null,
    compact: p.compactionResult,
    set_auto_compaction: null,
    set_auto_retry: null,
    set_permission_mode: null,
    abort_retry: null,
    bash: z.object({ output: z.string(), exitCode: z.number().optional(), cancelled: z.boolean(), truncated: z.boolean(), fullOutputPath: z.string().optional() }),
    abort_bash: null,
    get_session_stats: z.object({
      sessionFile: z.string().optional(),
      sessionId: z.string(),
      userMessages: z.number(),
      assistantMessages: z.number(),
      toolCalls: z.number(),
      toolResults: z.number(),
      totalMessages: z.number(),
      tokens,
      cost: z.number(),
      contextUsage: contextUsage.optional(),
    }),
    export_html: z.object({ path: z.string() }),
    switch_session: z.object({
      cancelled: z.boolean(),
      background: z.object({ sessionId: z.string(), sessionFile: z.string().optional(), streaming: z.boolean(), displaced: z.array(z.string()), message: z.string() }).optional(),
    }),
    branch: branched,
    fork: branched,
    get_checkpoints: z.object({
      checkpoints: z.array(
        z.object({
          entryId: z.string(),
          turnIndex: z.number(),
          timestamp: z.number(),
          files: z.array(p.fileChange),
          notRestorable: z.array(z.object({ path: z.string(), reason: z.string() })).optional(),
        }),
      ),
    }),
    get_turn_changes: z.object({ files: z.array(p.fileChange), diff: z.string() }),
    revert: p.revertResult,
    clone: p.cancelled,
    get_branch_messages: entryTexts,
    get_fork_messages: entryTexts,
    get_entries: z.object({ entries: z.array(p.sessionEntry).readonly(), leafId: z.string().nullable() }),
    get_tree: z.object({ tree: z.array(p.treeNode), leafId: z.string().nullable() }),
    set_session_name: null,
    handoff: z.object({ cancelled: z.boolean(), sessionId: z.string(), sessionFile: z.string().optional(), parentSession: z.string().optional(), summary: z.string() }),
    get_background_sessions: z.object({
      sessions: z.array(
        z.object({ sessionId: z.string(), sessionFile: z.string().optional(), title: z.string(), detachedAt: z.string(), streaming: z.boolean(), stopping: z.boolean() }),
      ),
    }),
    cancel_background_session: null,
    get_login_providers: z.object({
      providers: z.array(z.object({ id: z.string(), name: z.string(), kind: z.literal("api-key"), url: z.string(), loggedIn: z.boolean() })),
    }),
    login: z.object({ providerId: z.string(), loggedIn: z.boolean(), models: z.array(z.string()) }),
  } satisfies Record<CommandType, z.ZodType | null>;
  return table;
});

type Table = ReturnType<typeof builders>;
/** What a command's success response carries as `data` (`undefined`: no data). */
export type ResponseData<K extends CommandType> = Table[K] extends z.ZodType ? z.infer<Table[K]> : undefined;

/** A command's data schema, or null when its success response has no `data`. */
export function responseSchema(type: CommandType): z.ZodType | null {
  return builders()[type];
}
