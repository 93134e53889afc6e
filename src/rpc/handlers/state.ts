/** State, model, thinking, queue modes and toggles: answered at once, no model call. */
import type { CommandOf } from "../commands.ts";
import type { HandlerContext } from "./context.ts";

export function stateHandlers(ctx: HandlerContext) {
  return {
    get_state: async () => {
      const pending = ctx.session.queues.size;
      return {
        model: ctx.session.model ?? null,
        thinkingLevel: ctx.session.thinkingLevel,
        isStreaming: ctx.session.isStreaming,
        isCompacting: ctx.session.isCompacting,
        steeringMode: ctx.session.queues.steeringMode,
        followUpMode: ctx.session.queues.followUpMode,
        interruptMode: ctx.session.interruptMode,
        sessionFile: ctx.session.store.path,
        sessionId: ctx.session.store.sessionId,
        sessionName: ctx.session.store.name,
        autoCompactionEnabled: ctx.session.autoCompaction,
        autoRetryEnabled: ctx.session.autoRetry,
        permissionMode: ctx.session.permissionMode,
        tools: ctx.session.tools.map((t) => t.name),
        messageCount: ctx.session.messages().length,
        pendingMessageCount: pending,
        queuedMessageCount: pending,
        todoPhases: ctx.session.todos.get(),
        systemPrompt: [await ctx.session.systemPrompt()],
        dumpTools: ctx.session.tools.map((t) => ({ name: t.name, description: t.description, parameters: t.parameters })),
        contextUsage: ctx.session.contextUsage(),
        checkpoints: ctx.session.checkpoints.status,
        sandbox: ctx.session.options.sandbox?.status ?? { mode: "off", network: true, writablePaths: [], active: false },
      };
    },
    get_messages: () => ({ messages: ctx.session.messages() }),
    get_last_assistant_text: () => ({ text: ctx.session.lastAssistantText() }),
    get_commands: () => ({ commands: mcpCommands(ctx) }),
    get_available_commands: () => ({ commands: mcpCommands(ctx) }),
    get_available_models: () => ({ models: ctx.session.choice.all }),
    set_model: (c: CommandOf<"set_model">) => ctx.session.choice.set(c.provider, c.modelId),
    cycle_model: () => ctx.session.choice.cycle(),
    set_thinking_level: (c: CommandOf<"set_thinking_level">) => {
      ctx.session.choice.setThinking(c.level);
    },
    cycle_thinking_level: () => ctx.session.choice.cycleThinking(),
    get_available_thinking_levels: () => ({ levels: ctx.session.choice.thinkingLevels() }),
    set_steering_mode: (c: CommandOf<"set_steering_mode">) => {
      ctx.session.queues.steeringMode = c.mode;
    },
    set_follow_up_mode: (c: CommandOf<"set_follow_up_mode">) => {
      ctx.session.queues.followUpMode = c.mode;
    },
    set_interrupt_mode: (c: CommandOf<"set_interrupt_mode">) => {
      ctx.session.interruptMode = c.mode;
    },
    set_auto_compaction: (c: CommandOf<"set_auto_compaction">) => {
      ctx.session.autoCompaction = c.enabled;
    },
    set_auto_retry: (c: CommandOf<"set_auto_retry">) => {
      ctx.session.autoRetry = c.enabled;
    },
    set_permission_mode: (c: CommandOf<"set_permission_mode">) => {
      ctx.session.permissionMode = c.mode;
    },
    set_tools: (c: CommandOf<"set_tools">) => {
      ctx.session.toolbox.setTools(c.enabled ?? [], c.disabled ?? []);
      return { tools: ctx.session.tools.map((t) => t.name) };
    },
    set_session_name: (c: CommandOf<"set_session_name">) => {
      ctx.session.setSessionName(c.name);
      ctx.bridge.ui.setTitle(c.name.trim());
    },
  };
}

/** MCP prompts, the only commands nova has: Pi's command shape plus the prompt's arguments. */
function mcpCommands(ctx: HandlerContext) {
  return (ctx.session.options.mcp?.commands() ?? []).map((c) => ({ ...c, source: "mcp" }));
}
