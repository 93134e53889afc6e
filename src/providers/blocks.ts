/**
 * Assigns content-block indices for wire formats that do not number blocks
 * themselves. Consecutive deltas of one kind extend the open block; a change
 * of kind, or any tool call, starts the next index.
 */
export class BlockIndexer {
  private next = 0;
  private open: { kind: "text" | "thinking"; index: number } | undefined;

  /** The index for a text or thinking delta. */
  block(kind: "text" | "thinking"): number {
    if (this.open?.kind !== kind) this.open = { kind, index: this.next++ };
    return this.open.index;
  }

  /** A new block that nothing else extends (a tool call). */
  standalone(): number {
    this.open = undefined;
    return this.next++;
  }
}
