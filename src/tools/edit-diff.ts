/**
 * A unified diff of exact-text replacements. The replacements already say where
 * the file changed, so the hunks are built from their positions directly: no
 * general diff algorithm, and the cost is linear in the file size.
 */

export interface Replacement {
  /** offsets into the old text, end exclusive */
  start: number;
  end: number;
  text: string;
}

interface Block {
  /** 0-based old line index of the first changed line */
  oldStart: number;
  oldLines: string[];
  newLines: string[];
}

const CONTEXT = 3;

/** `replacements` must be sorted by start and must not overlap. */
export function replacementDiff(path: string, oldText: string, replacements: Replacement[]): { diff: string; firstChangedLine?: number } {
  const starts = lineStarts(oldText);
  const lines = oldText.split("\n");
  const realLineCount = oldText.endsWith("\n") ? lines.length - 1 : lines.length;
  const blocks = mergeBlocks(oldText, starts, lines, replacements);
  if (blocks.length === 0) return { diff: "" };

  const out = [`--- a/${path}`, `+++ b/${path}`];
  let delta = 0;
  let firstChangedLine: number | undefined;
  for (let i = 0; i < blocks.length; ) {
    // A hunk takes every following block whose leading context would touch this one's trailing context.
    let j = i;
    while (j + 1 < blocks.length && blocks[j + 1]!.oldStart - end(blocks[j]!) <= 2 * CONTEXT) j++;
    const from = Math.max(0, blocks[i]!.oldStart - CONTEXT);
    const to = Math.max(end(blocks[j]!), Math.min(realLineCount, end(blocks[j]!) + CONTEXT));
    const body: string[] = [];
    let newCount = 0;
    let cursor = from;
    const hunkDelta = delta;
    for (let k = i; k <= j; k++) {
      const block = blocks[k]!;
      for (; cursor < block.oldStart; cursor++) body.push(` ${lines[cursor]}`);
      for (const line of block.oldLines) body.push(`-${line}`);
      for (const line of block.newLines) body.push(`+${line}`);
      firstChangedLine ??= block.oldStart + delta + 1;
      newCount += block.oldStart - (k === i ? from : end(blocks[k - 1]!)) + block.newLines.length;
      delta += block.newLines.length - block.oldLines.length;
      cursor = end(block);
    }
    for (; cursor < to; cursor++) body.push(` ${lines[cursor]}`);
    newCount += to - end(blocks[j]!);
    const oldCount = to - from;
    out.push(`@@ -${range(from, oldCount)} +${range(from + hunkDelta, newCount)} @@`, ...body);
    i = j + 1;
  }
  return { diff: out.join("\n"), firstChangedLine };
}

function end(block: Block): number {
  return block.oldStart + block.oldLines.length;
}

/** Unified diff ranges are 1-based, except that an empty range names the line before it. */
function range(start0: number, count: number): string {
  return count === 0 ? `${start0},0` : `${start0 + 1},${count}`;
}

function lineStarts(text: string): number[] {
  const starts = [0];
  for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", i + 1)) starts.push(i + 1);
  return starts;
}

/** index of the line holding offset `pos` */
function lineAt(starts: number[], pos: number): number {
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (starts[mid]! <= pos) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/** Whole-line blocks, neighbouring replacements that share a line joined, equal edge lines trimmed off. */
function mergeBlocks(oldText: string, starts: number[], lines: string[], replacements: Replacement[]): Block[] {
  const blocks: Block[] = [];
  let i = 0;
  while (i < replacements.length) {
    const firstLine = lineAt(starts, replacements[i]!.start);
    let lastLine = lineAt(starts, replacements[i]!.end);
    let j = i;
    while (j + 1 < replacements.length && lineAt(starts, replacements[j + 1]!.start) <= lastLine) {
      j++;
      lastLine = lineAt(starts, replacements[j]!.end);
    }
    const blockStart = starts[firstLine]!;
    const blockEnd = lastLine + 1 < starts.length ? starts[lastLine + 1]! - 1 : oldText.length;
    const parts: string[] = [];
    let pos = blockStart;
    for (let k = i; k <= j; k++) {
      parts.push(oldText.slice(pos, replacements[k]!.start), replacements[k]!.text);
      pos = replacements[k]!.end;
    }
    parts.push(oldText.slice(pos, blockEnd));
    const oldLines = lines.slice(firstLine, lastLine + 1);
    const newLines = parts.join("").split("\n");
    let head = 0;
    while (head < oldLines.length && head < newLines.length && oldLines[head] === newLines[head]) head++;
    let tail = 0;
    while (tail < oldLines.length - head && tail < newLines.length - head && oldLines[oldLines.length - 1 - tail] === newLines[newLines.length - 1 - tail]) tail++;
    if (head < oldLines.length - tail || head < newLines.length - tail) {
      blocks.push({
        oldStart: firstLine + head,
        oldLines: oldLines.slice(head, oldLines.length - tail),
        newLines: newLines.slice(head, newLines.length - tail),
      });
    }
    i = j + 1;
  }
  return blocks;
}
