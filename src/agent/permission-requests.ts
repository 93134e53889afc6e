/**
 * Bash commands that wait for the host's approval. Each request is announced
 * once and settled by the host's answer or an abort (denied). Once the host
 * is gone (stdin closed), every pending and every new request fails with
 * `HostGone`, so a tool can say why it did not run instead of "denied".
 */
import { HostGone } from "../host/pending.ts";
import { CommandError } from "./errors.ts";

export interface PermissionAnnouncement {
  requestId: number;
  toolName: string;
  command: string;
  /** an MCP tool call's arguments, for the host to show */
  arguments?: Record<string, unknown>;
}

export class PermissionRequests {
  private readonly pending = new Map<string, { settle: (approved: boolean) => void; fail: (error: Error) => void }>();
  private next = 1;
  private gone: string | undefined;

  constructor(private readonly announce: (request: PermissionAnnouncement) => void) {}

  ask = (request: Omit<PermissionAnnouncement, "requestId">, signal: AbortSignal): Promise<boolean> => {
    if (signal.aborted) return Promise.resolve(false);
    if (this.gone) return Promise.reject(new HostGone(this.gone));
    const requestId = this.next++;
    return new Promise((resolve, reject) => {
      const done = () => {
        this.pending.delete(String(requestId));
        signal.removeEventListener("abort", onAbort);
      };
      const settle = (approved: boolean) => (done(), resolve(approved));
      const fail = (error: Error) => (done(), reject(error));
      const onAbort = () => settle(false);
      signal.addEventListener("abort", onAbort, { once: true });
      this.pending.set(String(requestId), { settle, fail });
      this.announce({ requestId, ...request });
    });
  };

  answer(requestId: string | number, approved: boolean): void {
    const entry = this.pending.get(String(requestId));
    if (!entry) throw new CommandError(`Unknown permission requestId: ${JSON.stringify(requestId)} (no pending request has it)`);
    entry.settle(approved);
  }

  /** The host can no longer answer: withdraw what is pending and refuse what comes. */
  close(reason: string): void {
    this.gone = reason;
    for (const entry of [...this.pending.values()]) entry.fail(new HostGone(reason));
  }
}
