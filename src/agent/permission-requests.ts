/**
 * Bash commands that wait for the host's approval. Each request is announced
 * once and settled by the host's answer, an abort (denied) or stdin closing
 * (denied: nobody can answer any more).
 */
import { PendingTable } from "../host/pending.ts";
import { CommandError } from "./errors.ts";

export interface PermissionAnnouncement {
  requestId: number;
  toolName: string;
  command: string;
}

export class PermissionRequests {
  private readonly table = new PendingTable<string, boolean>(counter());

  constructor(private readonly announce: (request: PermissionAnnouncement) => void) {}

  /** Resolves with the host's answer; an abort denies. */
  ask = (request: { toolName: string; command: string }, signal: AbortSignal): Promise<boolean> =>
    this.table
      .open((id) => this.announce({ requestId: Number(id), toolName: request.toolName, command: request.command }), { signal })
      .catch(() => false);

  /** The host may answer with the id as a number or a string. */
  answer(requestId: string | number, approved: boolean): void {
    if (!this.table.settle(String(requestId), approved)) {
      throw new CommandError(`Unknown permission requestId: ${JSON.stringify(requestId)} (no pending request has it)`);
    }
  }

  denyAll(): void {
    this.table.settleAll(false);
  }
}

function counter(): () => string {
  let next = 1;
  return () => String(next++);
}
