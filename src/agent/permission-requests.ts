/**
 * Bash commands that wait for the host's approval. Each request is announced
 * once and settled by the host's answer or an abort (denied). Once the host
 * is gone (stdin closed), every pending and every new request fails with
 * `HostGone`, so a tool can say why it did not run instead of "denied".
 */
import { HostGone, PendingTable } from "../host/pending.ts";
import { CommandError } from "./errors.ts";

export interface PermissionAnnouncement {
  requestId: number;
  toolName: string;
  command: string;
  /** an MCP tool call's arguments, for the host to show */
  arguments?: Record<string, unknown>;
}

export class PermissionRequests {
  private readonly table = new PendingTable<string, boolean>(counter());

  constructor(private readonly announce: (request: PermissionAnnouncement) => void) {}

  /** Resolves with the host's answer; an abort denies; a host that is gone rejects with `HostGone`. */
  ask = (request: Omit<PermissionAnnouncement, "requestId">, signal: AbortSignal): Promise<boolean> => {
    if (signal.aborted) return Promise.resolve(false);
    const announce = (id: string) => this.announce({ requestId: Number(id), ...request });
    return this.table.open(announce, { signal }).catch((error) => {
      if (error instanceof HostGone) throw error;
      return false;
    });
  };

  /** The host may answer with the id as a number or a string. */
  answer(requestId: string | number, approved: boolean): void {
    if (!this.table.settle(String(requestId), approved)) {
      throw new CommandError(`Unknown permission requestId: ${JSON.stringify(requestId)} (no pending request has it)`);
    }
  }

  /** The host can no longer answer: withdraw what is pending and refuse what comes. */
  close(reason: string): void {
    this.table.close(() => new HostGone(reason));
  }
}

function counter(): () => string {
  let next = 1;
  return () => String(next++);
}
