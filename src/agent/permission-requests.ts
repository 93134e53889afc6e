/**
 * Bash commands that wait for the host's approval. Each request is announced
 * once and settled by the host's answer, an abort (denied) or stdin closing
 * (denied: nobody can answer any more).
 */
import { CommandError } from "./errors.ts";

export interface PermissionAnnouncement {
  requestId: number;
  toolName: string;
  command: string;
  /** an MCP tool call's arguments, for the host to show */
  arguments?: Record<string, unknown>;
}

export class PermissionRequests {
  private readonly pending = new Map<string, (approved: boolean) => void>();
  private next = 1;

  constructor(private readonly announce: (request: PermissionAnnouncement) => void) {}

  ask = (request: Omit<PermissionAnnouncement, "requestId">, signal: AbortSignal): Promise<boolean> => {
    if (signal.aborted) return Promise.resolve(false);
    const requestId = this.next++;
    return new Promise((resolve) => {
      const settle = (approved: boolean) => {
        this.pending.delete(String(requestId));
        signal.removeEventListener("abort", onAbort);
        resolve(approved);
      };
      const onAbort = () => settle(false);
      signal.addEventListener("abort", onAbort, { once: true });
      this.pending.set(String(requestId), settle);
      this.announce({ requestId, ...request });
    });
  };

  answer(requestId: string | number, approved: boolean): void {
    const settle = this.pending.get(String(requestId));
    if (!settle) throw new CommandError(`Unknown permission requestId: ${JSON.stringify(requestId)} (no pending request has it)`);
    settle(approved);
  }

  denyAll(): void {
    for (const settle of [...this.pending.values()]) settle(false);
  }
}
