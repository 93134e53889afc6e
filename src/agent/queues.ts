/**
 * Messages waiting for the running turn: steering (delivered after the current
 * tool batch) and follow-ups (delivered when the agent would stop). Each change
 * is reported so the host can show what is pending.
 */
import type { ImageContent, UserMessage } from "../core/messages.ts";
import { blockText } from "../core/text.ts";

export type QueueMode = "all" | "one-at-a-time";

export interface QueueState {
  steering: string[];
  followUp: string[];
  pendingMessageCount: number;
}

export class MessageQueues {
  steeringMode: QueueMode = "one-at-a-time";
  followUpMode: QueueMode = "one-at-a-time";
  private steering: UserMessage[] = [];
  private followUp: UserMessage[] = [];

  constructor(private readonly changed: (state: QueueState) => void) {}

  push(kind: "steer" | "followUp", message: UserMessage): void {
    (kind === "steer" ? this.steering : this.followUp).push(message);
    this.report();
  }

  get hasSteering(): boolean {
    return this.steering.length > 0;
  }

  get size(): number {
    return this.steering.length + this.followUp.length;
  }

  takeSteering(): UserMessage[] {
    return this.take(this.steering, this.steeringMode);
  }

  takeFollowUp(): UserMessage[] {
    return this.take(this.followUp, this.followUpMode);
  }

  /** Empties both queues; returns the texts that were dropped. */
  clear(): { steering: string[]; followUp: string[] } {
    const cleared = { steering: this.steering.map(textOf), followUp: this.followUp.map(textOf) };
    if (this.size === 0) return cleared;
    this.steering = [];
    this.followUp = [];
    this.report();
    return cleared;
  }

  private take(queue: UserMessage[], mode: QueueMode): UserMessage[] {
    if (queue.length === 0) return [];
    const taken = mode === "all" ? queue.splice(0) : queue.splice(0, 1);
    this.report();
    return taken;
  }

  private report(): void {
    this.changed({ steering: this.steering.map(textOf), followUp: this.followUp.map(textOf), pendingMessageCount: this.size });
  }
}

export function userMessage(text: string, images: ImageContent[]): UserMessage {
  return {
    role: "user",
    content: images.length > 0 ? [{ type: "text", text }, ...images] : text,
    timestamp: Date.now(),
  };
}

export function textOf(message: UserMessage): string {
  return blockText(message.content);
}
