/**
 * Questions to the host about tool calls (`permission_request`), settled by
 * its `permission_response`. A question that can no longer be answered is
 * withdrawn with `permission_cancelled`: an abort (reason `aborted`) or the
 * host going away (stdin closed, reason `host_gone`); either way the asker
 * rejects with `PermissionWithdrawn`, so the tool says the call was cancelled
 * before an answer, not denied. A question that could not even be sent (the
 * host was gone already) rejects with `HostGone`.
 */
import type { PermissionKind, RememberScope } from "../core/enums.ts";
import { HOST_GONE, HostGone, PendingTable } from "../host/pending.ts";
import type { PermissionQuestion } from "../tools/types.ts";
import { CommandError } from "./errors.ts";

export const PERMISSION_OPTIONS = ["allow_once", "allow_always", "reject"] as const;

export interface PermissionAnnouncement extends Omit<PermissionQuestion, "kind"> {
  requestId: number;
  kind: PermissionKind;
  options: (typeof PERMISSION_OPTIONS)[number][];
}

export interface PermissionAnswer {
  approved: boolean;
  remember?: RememberScope;
}

export type WithdrawReason = "aborted" | "host_gone";

/** A question withdrawn before an answer: the turn was aborted, or the host is gone. */
export class PermissionWithdrawn extends Error {
  constructor(readonly reason: WithdrawReason) {
    super(reason === "aborted" ? "the turn was aborted" : HOST_GONE);
    this.name = "PermissionWithdrawn";
  }
}

export class PermissionRequests {
  private readonly table = new PendingTable<string, PermissionAnswer>(counter());
  private readonly open = new Set<string>();

  constructor(
    private readonly announce: (request: PermissionAnnouncement) => void,
    private readonly withdrawn: (requestId: number, reason: WithdrawReason) => void,
  ) {}

  /** Resolves with the host's answer; rejects with PermissionWithdrawn on an abort or once the host is gone. */
  ask = async (request: PermissionQuestion & { kind: PermissionKind }, signal: AbortSignal): Promise<PermissionAnswer> => {
    if (signal.aborted) throw new PermissionWithdrawn("aborted");
    let id: string | undefined;
    const announce = (opened: string) => {
      id = opened;
      this.open.add(opened);
      this.announce({ requestId: Number(opened), ...request, options: [...PERMISSION_OPTIONS] });
    };
    try {
      return await this.table.open(announce, { signal, cancel: (opened) => this.withdraw(opened, "aborted") });
    } catch (error) {
      if (error instanceof HostGone) {
        // never asked: the host was gone already, so there is nothing to withdraw
        if (id === undefined) throw error;
        this.withdraw(id, "host_gone");
        throw new PermissionWithdrawn("host_gone");
      }
      throw new PermissionWithdrawn("aborted");
    } finally {
      if (id !== undefined) this.open.delete(id);
    }
  };

  /** The host may answer with the id as a number or a string. */
  answer(requestId: string | number, answer: PermissionAnswer): void {
    if (!this.table.settle(String(requestId), answer)) {
      throw new CommandError(`Unknown permission requestId: ${JSON.stringify(requestId)} (no pending request has it)`);
    }
  }

  /** The host can no longer answer: withdraw what is pending and refuse what comes. */
  close(reason: string): void {
    this.table.close(() => new HostGone(reason));
  }

  private withdraw(id: string, reason: WithdrawReason): void {
    if (!this.open.delete(id)) return;
    this.withdrawn(Number(id), reason);
  }
}

function counter(): () => string {
  let next = 1;
  return () => String(next++);
}
