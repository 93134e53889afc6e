/**
 * The one place that decides what happens next: turns, tool batches, steering
 * and follow-ups, retries. Everything it reports goes through the host's sink;
 * it never knows about JSON lines. Every agent_start is paired with exactly
 * one agent_end, whatever fails in between.
 */
import type { AgentMessage, AssistantMessage, UserMessage } from "../core/messages.ts";
import type { EventSink } from "./events.ts";
import type { Provider, ProviderError, ProviderRequest } from "../providers/types.ts";
import type { Tool, ToolContext, ToolResult } from "../tools/types.ts";
import { newAssistantMessage, streamAssistantMessage } from "./stream.ts";
import { retryDelay, sleep, type RetrySettings } from "./retry.ts";
import { runToolCalls } from "./tool-runner.ts";

export interface LoopHost {
  readonly sink: EventSink;
  readonly interruptMode: "immediate" | "wait";
  /** the conversation so far (without the system prompt) */
  messages(): AgentMessage[];
  /**
   * Adds a finished message to the context: the session entry, then
   * `afterSave` (events that report the message as done, so a kill after
   * the host read them cannot lose it), message_start (unless the stream
   * already announced it), then message_end.
   */
  addMessage(message: AgentMessage, announced?: boolean, afterSave?: () => void): void;
  /** the next request, or the reason none can be made (no model configured) */
  buildRequest(): Promise<{ provider: Provider; request: ProviderRequest } | string>;
  findTool(name: string): Tool | undefined;
  toolNames(): string[];
  toolContext(signal: AbortSignal, onUpdate: (partial: ToolResult) => void, toolCallId?: string): ToolContext;
  hasSteering(): boolean;
  takeSteering(): UserMessage[];
  takeFollowUp(): UserMessage[];
  /** undefined when auto-retry is off */
  retrySettings(): RetrySettings | undefined;
  /** removes API keys from provider error text before it reaches events, session files or logs */
  redact(text: string): string;
  /** a signal that fires on abort_retry (or abort) during one backoff wait */
  retryWaitSignal(turn: AbortSignal): AbortSignal;
  /** messages that keep the run going when it would stop (todo reminders) */
  beforeStop?(): UserMessage[];
  /** called before each model request; may compact the context */
  beforeRequest?(signal: AbortSignal): Promise<void>;
  /** called when a request failed because the context is too long; true = compacted, retry once */
  onContextOverflow?(signal: AbortSignal): Promise<boolean>;
}

export async function runLoop(host: LoopHost, initial: UserMessage[], signal: AbortSignal): Promise<void> {
  const { sink } = host;
  sink.emit({ type: "agent_start" });
  let pending: AgentMessage[] = initial;
  let turnIndex = 0;
  try {
    for (;;) {
      sink.emit({ type: "turn_start", turnIndex });
      for (const message of pending) host.addMessage(message);
      pending = [];
      const { message, badArgs } = await requestAssistant(host, signal);
      const failed = message.stopReason === "error" || message.stopReason === "aborted";
      const toolResults = failed ? [] : await runToolCalls(host, message, badArgs, signal);
      sink.emit({ type: "turn_end", turnIndex, message, toolResults });
      turnIndex++;
      if (failed || signal.aborted) break;
      const steering = host.takeSteering();
      if (steering.length > 0) pending = steering;
      else if (toolResults.length > 0) continue;
      else pending = host.takeFollowUp();
      if (pending.length === 0) pending = host.beforeStop?.() ?? [];
      if (pending.length === 0) break;
    }
  } catch (error) {
    process.stderr.write(`nova: agent loop failed: ${(error as Error)?.stack ?? String(error)}\n`);
  } finally {
    sink.emit({ type: "agent_end", messages: host.messages() });
  }
}

/** One assistant message, with automatic retries while nothing has reached the host yet. */
async function requestAssistant(
  host: LoopHost,
  signal: AbortSignal,
): Promise<{ message: AssistantMessage; badArgs: Map<string, string> }> {
  const { sink } = host;
  let attempt = 0;
  let compacted = false;
  for (;;) {
    await host.beforeRequest?.(signal);
    const next = await host.buildRequest();
    if (typeof next === "string") return finish(host, failedMessage(next), false, new Map());
    const outcome = await streamAssistantMessage(next.provider, next.request, signal, sink);
    const { message, error, started } = outcome;
    // a provider may echo the key it was sent in its error text
    if (error) error.message = host.redact(error.message);
    if (message.errorMessage) message.errorMessage = host.redact(message.errorMessage);
    if (error && !started && !signal.aborted) {
      if (error.contextOverflow && !compacted && host.onContextOverflow) {
        compacted = true;
        if (await host.onContextOverflow(signal)) continue;
      }
      const settings = error.retryable ? host.retrySettings() : undefined;
      if (settings && attempt < settings.maxRetries) {
        attempt++;
        if (await waitToRetry(host, error, attempt, settings, signal)) continue;
        sink.emit({ type: "auto_retry_end", success: false, attempt, finalError: error.message });
        if (signal.aborted) {
          message.stopReason = "aborted";
          message.errorMessage = "Request was aborted";
        }
        return finish(host, message, started, outcome.badArgs);
      }
    }
    if (attempt > 0) sink.emit({ type: "auto_retry_end", success: !error, attempt, finalError: error?.message });
    return finish(host, message, started, outcome.badArgs);
  }
}

async function waitToRetry(
  host: LoopHost,
  error: ProviderError,
  attempt: number,
  settings: RetrySettings,
  signal: AbortSignal,
): Promise<boolean> {
  const delayMs = retryDelay(error, attempt, settings);
  host.sink.emit({ type: "auto_retry_start", attempt, maxAttempts: settings.maxRetries, delayMs, errorMessage: error.message });
  return sleep(delayMs, host.retryWaitSignal(signal));
}

function finish(host: LoopHost, message: AssistantMessage, started: boolean, badArgs: Map<string, string>) {
  host.addMessage(message, started);
  return { message, badArgs };
}

function failedMessage(reason: string): AssistantMessage {
  const message = newAssistantMessage(undefined);
  message.stopReason = "error";
  message.errorMessage = reason;
  return message;
}
