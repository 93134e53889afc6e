/**
 * The one place that decides what happens next: turns, tool batches, steering
 * and follow-ups, retries. It is a function of data (the context, the next
 * model call, what tools get), an emit and a few hooks; it never knows about
 * sessions or JSON lines. It owns message_start/message_end for every message
 * of a run. Every agent_start is paired with exactly one agent_end, whatever
 * fails in between.
 */
import type { AgentMessage, AssistantMessage, UserMessage } from "../core/messages.ts";
import type { Emit } from "./events.ts";
import { type Provider, type ProviderError, type ProviderRequest, eventsOf } from "../providers/types.ts";
import type { Tool, ToolContext, ToolResult } from "../tools/types.ts";
import type { BudgetStop } from "../core/enums.ts";
import { MessageAssembler, newAssistantMessage, type Assembled } from "./assemble.ts";
import { retryDelay, sleep, type RetrySettings } from "./retry.ts";
import { runToolCalls } from "./tool-runner.ts";

/** One model call: who answers, what is asked, and the tools the answer may call. */
export interface ModelCall {
  provider: Provider;
  request: ProviderRequest;
  tools: readonly Tool[];
}

/** The gate's word on one call. */
export type GateVerdict = { refused: string; details?: unknown } | { args: Record<string, unknown>; approved?: boolean };

/** What a tool gets besides its arguments, the turn's signal and its update callback. */
export type ToolServices = Omit<ToolContext, "signal" | "onUpdate" | "toolCallId">;

/** What one run needs from its owner. */
export interface LoopSeam {
  /** every event of the run; a promise back means the consumer is full, and the stream waits for it */
  emit: Emit;
  /** the context so far (read afresh: a compaction during the run replaces it) */
  messages(): AgentMessage[];
  /** the next model call from the current context, or the reason none can be made (no model configured) */
  request(): Promise<ModelCall | string>;
  /** a finished message joins the context (and the session file) */
  append(message: AgentMessage): void;
  tools: ToolServices;
  hooks?: LoopHooks;
}

export interface LoopHooks {
  /** queued steering messages, delivered after the current tool batch */
  steering?(): UserMessage[];
  /** true when a queued message should cut the rest of the tool batch (interrupt mode `immediate`) */
  interrupts?(): boolean;
  /** queued follow-ups, delivered when the run would stop */
  followUp?(): UserMessage[];
  /** messages that keep the run going when it would stop (todo reminders, Stop hooks) */
  beforeStop?(): UserMessage[] | Promise<UserMessage[]>;
  /** the permission gate (and PreToolUse hooks): refuses a call with the text the model sees, or gives the arguments to run it with */
  gate?(tool: Tool, args: Record<string, unknown>, toolCallId: string, signal: AbortSignal): Promise<GateVerdict>;
  /** after a tool ran (PostToolUse hooks): may add to the result the model sees */
  afterTool?(tool: Tool, args: Record<string, unknown>, result: ToolResult, toolCallId: string): Promise<ToolResult>;
  /** called before a tool runs (checkpoints record the files before the first one that may change them) */
  beforeTool?(tool: Tool, args: Record<string, unknown>): Promise<void>;
  /** called after a message's tool batch, before turn_end (checkpoints record what the batch changed) */
  afterTools?(message: AssistantMessage, turnIndex: number): Promise<void>;
  /** called before each model request; may compact the context */
  beforeRequest?(signal: AbortSignal): Promise<void>;
  /** a request failed because the context is too long; true = compacted, retry once */
  onContextOverflow?(signal: AbortSignal): Promise<boolean>;
  /** removes API keys from provider error text before it reaches events, session files or logs */
  redact?(text: string): string;
  /** automatic retry of failed requests; undefined = off */
  retry?(): RetrySettings | undefined;
  /** the backoff wait: true when it ran out, false when cut short (abort, abort_retry) */
  sleep?(ms: number, signal: AbortSignal): Promise<boolean>;
  /** asked before every model request: the budget limit the request would pass (agent/budget.ts) */
  limit?(): BudgetStop | undefined;
  /** the structured answer this turn's message gives, for its turn_end (agent/structured-output.ts) */
  turnOutput?(message: AssistantMessage): unknown;
  /** true when the run is over although tools ran (the structured answer is in, or its tries are used up) */
  done?(): boolean;
  /** what agent_end reports besides the messages: the structured answer, or why there is none */
  outcome?(): { structuredOutput?: unknown; error?: string };
}

export async function runLoop(seam: LoopSeam, initial: UserMessage[], signal: AbortSignal): Promise<void> {
  const { emit, hooks = {} } = seam;
  emit({ type: "agent_start" });
  let pending: AgentMessage[] = initial;
  let turnIndex = 0;
  let stopReason: BudgetStop | undefined;
  try {
    for (;;) {
      stopReason = hooks.limit?.();
      if (stopReason) {
        // what would have started the turn stays in the context, unanswered
        for (const message of pending) addMessage(seam, message, false);
        break;
      }
      emit({ type: "turn_start", turnIndex });
      for (const message of pending) addMessage(seam, message, false);
      pending = [];
      const { message, badArgs, tools } = await requestAssistant(seam, hooks, signal);
      const failed = message.stopReason === "error" || message.stopReason === "aborted";
      const toolResults = failed
        ? []
        : await runToolCalls(message, badArgs, {
            tools,
            services: seam.tools,
            emit,
            append: (result, afterSave) => addMessage(seam, result, false, afterSave),
            interrupts: () => hooks.interrupts?.() ?? false,
            redact: (text) => hooks.redact?.(text) ?? text,
            gate: hooks.gate,
            afterTool: hooks.afterTool,
            beforeTool: hooks.beforeTool,
            signal,
          });
      if (toolResults.length > 0) await hooks.afterTools?.(message, turnIndex);
      const structuredOutput = failed ? undefined : hooks.turnOutput?.(message);
      emit(structuredOutput === undefined ? { type: "turn_end", turnIndex, message, toolResults } : { type: "turn_end", turnIndex, message, toolResults, structuredOutput });
      turnIndex++;
      if (failed || signal.aborted || hooks.done?.()) break;
      const steering = hooks.steering?.() ?? [];
      if (steering.length > 0) pending = steering;
      else if (toolResults.length > 0) continue;
      else pending = hooks.followUp?.() ?? [];
      if (pending.length === 0) pending = (await hooks.beforeStop?.()) ?? [];
      if (pending.length === 0) break;
    }
  } catch (error) {
    process.stderr.write(`nova: agent loop failed: ${(error as Error)?.stack ?? String(error)}\n`);
  } finally {
    emit({ type: "agent_end", messages: seam.messages(), willRetry: false, ...(stopReason ? { stopReason } : {}), ...hooks.outcome?.() });
  }
}

/**
 * The one place a finished message is reported: saved first, then
 * `afterSave` (events that report it as done, so a kill after the host read
 * them cannot lose it), message_start (unless the stream announced it), then
 * message_end.
 */
function addMessage(seam: LoopSeam, message: AgentMessage, announced: boolean, afterSave?: () => void): void {
  seam.append(message);
  afterSave?.();
  if (!announced) seam.emit({ type: "message_start", message });
  seam.emit({ type: "message_end", message });
}

interface Answer {
  message: AssistantMessage;
  badArgs: Map<string, string>;
  tools: readonly Tool[];
}

/** One assistant message, with automatic retries while nothing has reached the host yet. */
async function requestAssistant(seam: LoopSeam, hooks: LoopHooks, signal: AbortSignal): Promise<Answer> {
  const { emit } = seam;
  const redact = hooks.redact ?? ((text: string) => text);
  let attempt = 0;
  let compacted = false;
  for (;;) {
    await hooks.beforeRequest?.(signal);
    const call = await seam.request();
    if (typeof call === "string") return finish(seam, failedMessage(call), false, new Map(), []);
    const outcome = await streamMessage(emit, call, signal);
    const { message, error, started } = outcome;
    // a provider may echo the key it was sent in its error text
    if (error) error.message = redact(error.message);
    if (message.errorMessage) message.errorMessage = redact(message.errorMessage);
    if (error && !started && !signal.aborted) {
      if (error.contextOverflow && !compacted && hooks.onContextOverflow) {
        compacted = true;
        if (await hooks.onContextOverflow(signal)) continue;
      }
      const settings = error.retryable ? hooks.retry?.() : undefined;
      if (settings && attempt < settings.maxRetries) {
        attempt++;
        if (await waitToRetry(emit, hooks, error, attempt, settings, signal)) continue;
        emit({ type: "auto_retry_end", success: false, attempt, finalError: error.message });
        if (signal.aborted) {
          message.stopReason = "aborted";
          message.errorMessage = "Request was aborted";
        }
        return finish(seam, message, started, outcome.badArgs, call.tools);
      }
    }
    if (attempt > 0) emit({ type: "auto_retry_end", success: !error, attempt, finalError: error?.message });
    return finish(seam, message, started, outcome.badArgs, call.tools);
  }
}

/**
 * Runs one provider stream through the assembler, emitting `start` as
 * message_start and every other event as message_update. When the consumer
 * is full, the next provider event waits until it has room.
 */
async function streamMessage(emit: Emit, call: ModelCall, signal: AbortSignal): Promise<Assembled> {
  let full: Promise<void> | undefined;
  const assembler: MessageAssembler = new MessageAssembler(call.request.model, (event) => {
    const { message } = assembler;
    const wait = event.type === "start" ? emit({ type: "message_start", message }) : emit({ type: "message_update", message, assistantMessageEvent: event });
    if (wait) full = wait;
  });
  try {
    reading: for await (const item of call.provider.stream(call.request, signal)) {
      for (const event of eventsOf(item)) {
        assembler.push(event);
        if (full) {
          await full;
          full = undefined;
        }
        if (assembler.failed) break reading;
      }
    }
  } catch (thrown) {
    if (!signal.aborted) assembler.fail(thrown);
  }
  const assembled = assembler.finish(signal.aborted);
  if (full) await full;
  return assembled;
}

async function waitToRetry(emit: Emit, hooks: LoopHooks, error: ProviderError, attempt: number, settings: RetrySettings, signal: AbortSignal): Promise<boolean> {
  const delayMs = retryDelay(error, attempt, settings);
  emit({ type: "auto_retry_start", attempt, maxAttempts: settings.maxRetries, delayMs, errorMessage: error.message });
  return (hooks.sleep ?? sleep)(delayMs, signal);
}

function finish(seam: LoopSeam, message: AssistantMessage, started: boolean, badArgs: Map<string, string>, tools: readonly Tool[]): Answer {
  addMessage(seam, message, started);
  return { message, badArgs, tools };
}

function failedMessage(reason: string): AssistantMessage {
  const message = newAssistantMessage(undefined);
  message.stopReason = "error";
  message.errorMessage = reason;
  return message;
}
