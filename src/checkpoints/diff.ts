/**
 * A unified diff of two texts (Myers' O(ND) algorithm over lines), for
 * get_turn_changes. Binary contents are named, not diffed.
 */

const CONTEXT = 3;
/** Past this many edits the trace would cost too much memory: the diff shows the whole file replaced. */
const MAX_EDITS = 2000;

export function isBinary(bytes: Uint8Array): boolean {
  const n = Math.min(bytes.length, 8000);
  for (let i = 0; i < n; i++) if (bytes[i] === 0) return true;
  return false;
}

/** `--- a/path` / `+++ b/path` and hunks; "" when the texts are equal. */
export function unifiedDiff(path: string, before: string | undefined, after: string | undefined): string {
  const a = splitLines(before ?? "");
  const b = splitLines(after ?? "");
  const ops = diffLines(a, b);
  if (ops.every((op) => op.kind === "same")) return "";
  const header = `--- ${before === undefined ? "/dev/null" : `a/${path}`}\n+++ ${after === undefined ? "/dev/null" : `b/${path}`}\n`;
  return header + hunks(ops);
}

function splitLines(text: string): string[] {
  if (text === "") return [];
  const lines = text.split("\n");
  if (lines.at(-1) === "") lines.pop();
  return lines;
}

interface Op {
  kind: "same" | "del" | "add";
  line: string;
  /** 1-based line numbers in a and b at this op */
  ai: number;
  bi: number;
}

/** The shortest edit script, as a list of same/del/add lines. */
function diffLines(a: string[], b: string[]): Op[] {
  const n = a.length;
  const m = b.length;
  const max = n + m;
  const v = new Int32Array(2 * max + 2);
  const trace: Int32Array[] = [];
  outer: for (let d = 0; d <= max; d++) {
    if (d > MAX_EDITS) {
      return [...a.map((line, i): Op => ({ kind: "del", line, ai: i + 1, bi: 0 })), ...b.map((line, i): Op => ({ kind: "add", line, ai: n, bi: i + 1 }))];
    }
    trace.push(v.slice());
    for (let k = -d; k <= d; k += 2) {
      let x = k === -d || (k !== d && v[max + k - 1]! < v[max + k + 1]!) ? v[max + k + 1]! : v[max + k - 1]! + 1;
      let y = x - k;
      while (x < n && y < m && a[x] === b[y]) {
        x++;
        y++;
      }
      v[max + k] = x;
      if (x >= n && y >= m) break outer;
    }
  }
  const ops: Op[] = [];
  let x = n;
  let y = m;
  for (let d = trace.length - 1; d >= 0 && (x > 0 || y > 0); d--) {
    const vd = trace[d]!;
    const k = x - y;
    const prevK = k === -d || (k !== d && vd[max + k - 1]! < vd[max + k + 1]!) ? k + 1 : k - 1;
    const prevX = d === 0 ? 0 : vd[max + prevK]!;
    const prevY = prevX - prevK;
    while (x > prevX && y > prevY) {
      ops.push({ kind: "same", line: a[x - 1]!, ai: x, bi: y });
      x--;
      y--;
    }
    if (d === 0) break;
    if (x === prevX) ops.push({ kind: "add", line: b[y - 1]!, ai: x, bi: y }), y--;
    else ops.push({ kind: "del", line: a[x - 1]!, ai: x, bi: y }), x--;
  }
  return ops.reverse();
}

function hunks(ops: Op[]): string {
  let out = "";
  let i = 0;
  while (i < ops.length) {
    while (i < ops.length && ops[i]!.kind === "same") i++;
    if (i >= ops.length) break;
    let start = Math.max(0, i - CONTEXT);
    let end = i;
    // extend while changes are within 2 × CONTEXT of each other
    for (let j = i; j < ops.length; j++) {
      if (ops[j]!.kind !== "same") end = j;
      else if (j - end > 2 * CONTEXT) break;
    }
    const stop = Math.min(ops.length, end + CONTEXT + 1);
    const slice = ops.slice(start, stop);
    const aStart = firstLine(slice, "a");
    const bStart = firstLine(slice, "b");
    const aLen = slice.filter((o) => o.kind !== "add").length;
    const bLen = slice.filter((o) => o.kind !== "del").length;
    out += `@@ -${aLen === 0 ? aStart - 1 : aStart},${aLen} +${bLen === 0 ? bStart - 1 : bStart},${bLen} @@\n`;
    for (const o of slice) out += `${o.kind === "same" ? " " : o.kind === "del" ? "-" : "+"}${o.line}\n`;
    i = stop;
    start = stop;
  }
  return out;
}

function firstLine(slice: Op[], side: "a" | "b"): number {
  const first = slice[0]!;
  if (side === "a") return first.kind === "add" ? first.ai + 1 : first.ai;
  return first.kind === "del" ? first.bi + 1 : first.bi;
}
