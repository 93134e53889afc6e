/** State, model, thinking, queue modes and toggles: answered at once, no model call. */
import type { CommandOf } from "../commands.ts";
import type { HandlerContext } from "./context.ts";

export function stateHandlers({ session }: HandlerContext) {
  return {
    get_state: async () => {
      const pending = session.pendingMessageCount;
      return {
        model: session.model ?? null,
        thinkingLevel: session.thinkingLevel,
        isStreaming: session.isStreaming,
        isCompacting: session.isCompacting,
        steeringMode: session.steeringMode,
        followUpMode: session.followUpMode,
        interruptMode: session.interruptMode,
        sessionFile: session.store.path,
        sessionId: session.store.sessionId,
        sessionName: session.store.name,
        autoCompactionEnabled: session.autoCompaction,
        autoRetryEnabled: session.autoRetry,
        messageCount: session.messages().length,
        pendingMessageCount: pending,
        queuedMessageCount: pending,
        todoPhases: [],
        systemPrompt: [await session.systemPrompt()],
        dumpTools: session.tools.map((t) => ({ name: t.name, description: t.description, parameters: t.parameters })),
        contextUsage: session.contextUsage(),
      };
    },
    get_messages: () => ({ messages: session.messages() }),
    get_last_assistant_text: () => ({ text: session.lastAssistantText() }),
    get_commands: () => ({ commands: [] }),
    get_available_commands: () => ({ commands: [] }),
    get_available_models: () => ({ models: session.models }),
    set_model: (c: CommandOf<"set_model">) => session.setModel(c.provider, c.modelId),
    cycle_model: () => session.cycleModel(),
    set_thinking_level: (c: CommandOf<"set_thinking_level">) => {
      session.setThinkingLevel(c.level);
    },
    cycle_thinking_level: () => session.cycleThinkingLevel(),
    get_available_thinking_levels: () => ({ levels: session.availableThinkingLevels() }),
    set_steering_mode: (c: CommandOf<"set_steering_mode">) => {
      session.steeringMode = c.mode;
    },
    set_follow_up_mode: (c: CommandOf<"set_follow_up_mode">) => {
      session.followUpMode = c.mode;
    },
    set_interrupt_mode: (c: CommandOf<"set_interrupt_mode">) => {
      session.interruptMode = c.mode;
    },
    set_auto_compaction: (c: CommandOf<"set_auto_compaction">) => {
      session.autoCompaction = c.enabled;
    },
    set_auto_retry: (c: CommandOf<"set_auto_retry">) => {
      session.autoRetry = c.enabled;
    },
    set_session_name: (c: CommandOf<"set_session_name">) => session.setSessionName(c.name),
  };
}
