/**
 * Runs compactions (manual, at the threshold, after a context overflow) and
 * the summary of a handoff: one model call at a time, abortable, and either
 * fully applied (a compaction entry, then the context rebuilt) or not at all.
 */
import type { CompactionReason, CompactionResult, EventSink } from "./events.ts";
import type { Provider, ProviderRequest } from "../providers/types.ts";
import type { AgentMessage } from "../core/messages.ts";
import type { SessionStore } from "../session/index.ts";
import { contextItems, fileLists, findCut, manualCut, summarize } from "./compaction.ts";
import { CommandError } from "./errors.ts";

export interface CompactorHost {
  readonly sink: EventSink;
  readonly store: SessionStore;
  readonly keepRecentTokens: number;
  buildRequest(): Promise<{ provider: Provider; request: ProviderRequest } | string>;
  contextTokens(): number;
  /** rebuilds the context from the store after a compaction entry */
  reloadContext(): void;
}

export class Compactor {
  private running: AbortController | undefined;
  private compacting = false;

  constructor(private readonly host: CompactorHost) {}

  get isCompacting(): boolean {
    return this.compacting;
  }

  abort(): void {
    this.running?.abort();
  }

  /**
   * Automatic compaction inside a run, announced with auto_compaction_start/end
   * (Pi 0.73's names) around compaction_start/end (Pi 1.6's); true when it happened.
   */
  async auto(reason: "threshold" | "overflow", signal: AbortSignal): Promise<boolean> {
    const { sink } = this.host;
    sink.emit({ type: "auto_compaction_start", reason });
    try {
      const result = await this.compact(reason, undefined, signal);
      sink.emit({ type: "auto_compaction_end", result, aborted: false, willRetry: reason === "overflow" });
      return true;
    } catch (error) {
      sink.emit({ type: "auto_compaction_end", aborted: signal.aborted, willRetry: false, errorMessage: (error as Error).message });
      return false;
    }
  }

  /** Summarises the older part of the context into a compaction entry; recent messages stay verbatim. */
  async compact(reason: CompactionReason, customInstructions: string | undefined, outer: AbortSignal): Promise<CompactionResult> {
    if (this.compacting) throw new CommandError("A compaction is already running.");
    const { host } = this;
    const next = await host.buildRequest();
    if (typeof next === "string") throw new CommandError(next);
    const { items, previousSummary, previousDetails } = contextItems(host.store.pathToLeaf());
    const cut = findCut(items, host.keepRecentTokens) ?? (reason === "manual" ? manualCut(items) : undefined);
    if (cut === undefined) {
      throw new CommandError(
        reason === "manual" ? "Nothing to compact: the conversation is empty." : "Nothing to compact: the conversation is shorter than what is kept verbatim.",
      );
    }
    const before = host.contextTokens();
    // an overflow compaction is followed by the failed request, once more
    const willRetry = reason === "overflow";
    host.sink.emit({ type: "compaction_start", reason });
    this.compacting = true;
    try {
      const summarised = items.slice(0, cut).map((i) => i.message);
      const summary = await this.summary(next, summarised, previousSummary, customInstructions, outer);
      const firstKeptEntryId = items[cut]?.entryId ?? "";
      const details = fileLists(summarised, previousDetails);
      host.store.append({ type: "compaction", summary, firstKeptEntryId, tokensBefore: before, details });
      host.reloadContext();
      const after = host.contextTokens();
      const result: CompactionResult = { summary, firstKeptEntryId, tokensBefore: before, estimatedTokensAfter: after, tokensAfter: after, details };
      host.sink.emit({ type: "compaction_end", reason, before, after, result, aborted: false, willRetry });
      return result;
    } catch (error) {
      const aborted = error instanceof CommandError && error.kind === "compaction_aborted";
      host.sink.emit({ type: "compaction_end", reason, before, after: before, aborted, willRetry: false, errorMessage: (error as Error).message });
      throw error;
    } finally {
      this.compacting = false;
    }
  }

  /** The summary a handoff starts the next session from. */
  async handoffSummary(messages: AgentMessage[], customInstructions: string | undefined): Promise<string> {
    const next = await this.host.buildRequest();
    if (typeof next === "string") throw new CommandError(next);
    const ask = "Write it as a handoff: the next session starts from this summary alone and must be able to continue the work.";
    try {
      return await this.summary(next, messages, undefined, customInstructions ? `${ask} ${customInstructions}` : ask, new AbortController().signal);
    } catch (error) {
      throw new CommandError((error as Error).message.replace(/^Compaction/, "Handoff"));
    }
  }

  private async summary(
    next: { provider: Provider; request: ProviderRequest },
    messages: AgentMessage[],
    previousSummary: string | undefined,
    instructions: string | undefined,
    outer: AbortSignal,
  ): Promise<string> {
    const controller = new AbortController();
    this.running = controller;
    const signal = AbortSignal.any([outer, controller.signal]);
    try {
      const text = await summarize(next.provider, next.request, messages, previousSummary, instructions, signal);
      if (signal.aborted) throw new CommandError("Compaction aborted", "compaction_aborted");
      return text;
    } catch (error) {
      if (signal.aborted) throw new CommandError("Compaction aborted", "compaction_aborted");
      throw new CommandError((error as Error).message);
    } finally {
      this.running = undefined;
    }
  }
}
