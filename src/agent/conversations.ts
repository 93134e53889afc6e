/**
 * The conversations of one process: the one the host drives, and those sent
 * to the background while their turn streams (`new_session {background:true}`).
 * A background conversation finishes its turn unseen and is disposed once it
 * settles, unless the host re-attaches it with `switch_session` first.
 */
import { AgentSession, type SessionOptions } from "./session.ts";
import { CommandError } from "./errors.ts";
import type { AgentEvent } from "./events.ts";
import { blockText } from "../core/text.ts";

export interface BackgroundInfo {
  sessionId: string;
  sessionFile: string | undefined;
  streaming: boolean;
  displaced: string[];
  message: string;
}

interface Background {
  session: AgentSession;
  detachedAt: string;
  stopping: boolean;
}

/** How long a background turn may run on after stdin closed or a signal came. */
export const EXIT_GRACE_MS = 5000;

export class Conversations {
  current: AgentSession;
  private readonly background = new Map<string, Background>();
  private listener: ((event: AgentEvent) => Promise<void> | undefined) | undefined;
  private settledInBackground: ((session: AgentSession, aborted: boolean) => void) | undefined;

  constructor(
    private readonly options: SessionOptions,
    private readonly limit: number,
  ) {
    this.current = this.attach(new AgentSession(options));
  }

  /** Events of the attached conversation only; background ones run unseen (and never wait for the host). */
  onEvent(listener: (event: AgentEvent) => Promise<void> | undefined): void {
    this.listener = listener;
  }

  /** Called when a background conversation finishes its turn, or was aborted (and is disposed). */
  onBackgroundSettled(listener: (session: AgentSession, aborted: boolean) => void): void {
    this.settledInBackground = listener;
  }

  /**
   * Detaches the streaming conversation into the background and attaches a
   * fresh one with the same model and modes. With nothing streaming, the
   * session resets in place.
   */
  newInBackground(): { cancelled: boolean; background?: BackgroundInfo } {
    const old = this.current;
    if (!old.isStreaming) return old.files.newSession();
    const displaced = this.makeRoom();
    this.detach(old);
    this.current = this.attach(this.successor(old));
    // the host saw this run start; from its side the run ends here
    this.listener?.({ type: "agent_end", messages: old.messages(), willRetry: false });
    this.listener?.({ type: "agent_settled", aborted: false });
    return { cancelled: false, background: this.info(old, true, displaced, "The streaming conversation continues in the background.") };
  }

  /** Re-attaches a background conversation, if `target` names one; undefined otherwise. */
  reattach(target: { sessionId?: string; sessionPath?: string }): { cancelled: boolean; background: BackgroundInfo } | undefined {
    const entry = [...this.background.values()].find(
      (b) => (target.sessionId && b.session.store.sessionId === target.sessionId) || (target.sessionPath && b.session.store.path === target.sessionPath),
    );
    if (!entry) return undefined;
    this.background.delete(entry.session.store.sessionId);
    const old = this.current;
    const streaming = old.isStreaming;
    if (streaming) {
      this.detach(old);
      this.listener?.({ type: "agent_end", messages: old.messages(), willRetry: false });
      this.listener?.({ type: "agent_settled", aborted: false });
    }
    this.current = entry.session;
    // its run goes on where the host can see it again: a fresh start for the host's count
    if (entry.session.isStreaming) this.listener?.({ type: "agent_start" });
    return {
      cancelled: false,
      background: this.info(
        old,
        streaming,
        [],
        streaming ? "The conversation you left continues in the background." : "The conversation you left had no turn running and was closed.",
      ),
    };
  }

  list() {
    return {
      sessions: [...this.background.values()].map((b) => ({
        sessionId: b.session.store.sessionId,
        sessionFile: b.session.store.path,
        title: b.session.store.name ?? firstUserText(b.session),
        detachedAt: b.detachedAt,
        streaming: b.session.isStreaming,
        stopping: b.stopping,
      })),
    };
  }

  /** Aborts a background conversation's turn and waits until it is gone. */
  async cancel(sessionId: string): Promise<void> {
    const entry = this.background.get(sessionId);
    if (!entry) throw new CommandError(`No background conversation has sessionId ${JSON.stringify(sessionId)}`);
    entry.stopping = true;
    await entry.session.abort();
    this.background.delete(sessionId);
  }

  /** stdin closed: no conversation's permission question can be answered any more. */
  closePermissions(reason: string): void {
    for (const session of [this.current, ...[...this.background.values()].map((b) => b.session)]) session.closePermissions(reason);
  }

  /** At exit: background turns get EXIT_GRACE_MS to finish, then are stopped. */
  async stopAll(graceMs = EXIT_GRACE_MS): Promise<void> {
    const all = [...this.background.values()];
    if (all.length === 0) return;
    const finished = Promise.all(all.map((b) => b.session.waitForIdle()));
    const timer = new Promise<"late">((resolve) => setTimeout(() => resolve("late"), graceMs).unref());
    if ((await Promise.race([finished, timer])) !== "late") return;
    for (const b of all) b.stopping = true;
    await Promise.all(all.map((b) => b.session.abort()));
  }

  private attach(session: AgentSession): AgentSession {
    session.subscribe((event) => {
      if (session === this.current) return this.listener?.(event);
      if (event.type === "agent_settled") {
        const entry = this.background.get(session.store.sessionId);
        if (entry && this.background.delete(session.store.sessionId)) this.settledInBackground?.(session, entry.stopping);
      }
    });
    return session;
  }

  private detach(session: AgentSession): void {
    this.background.set(session.store.sessionId, { session, detachedAt: new Date().toISOString(), stopping: false });
  }

  /** Stops the oldest background conversations beyond the limit; returns their ids. */
  private makeRoom(): string[] {
    const displaced: string[] = [];
    while (this.background.size >= this.limit) {
      const [id, oldest] = this.background.entries().next().value!;
      oldest.stopping = true;
      void oldest.session.abort();
      this.background.delete(id);
      displaced.push(id);
    }
    return displaced;
  }

  private successor(old: AgentSession): AgentSession {
    const next = new AgentSession(this.options);
    next.model = old.model;
    next.thinkingLevel = old.thinkingLevel;
    next.queues.steeringMode = old.queues.steeringMode;
    next.queues.followUpMode = old.queues.followUpMode;
    next.interruptMode = old.interruptMode;
    next.autoCompaction = old.autoCompaction;
    next.autoRetry = old.autoRetry;
    next.permissionMode = old.permissionMode;
    next.toolbox.adoptOverrides(old.toolbox.toolOverrides);
    return next;
  }

  private info(session: AgentSession, streaming: boolean, displaced: string[], message: string): BackgroundInfo {
    return { sessionId: session.store.sessionId, sessionFile: session.store.path, streaming, displaced, message };
  }
}

function firstUserText(session: AgentSession): string {
  const first = session.messages().find((m) => m.role === "user");
  if (first?.role !== "user") return "";
  const text = blockText(first.content, " ");
  return text.slice(0, 80);
}
