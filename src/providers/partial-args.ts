/**
 * Gemini's streamed function-call arguments (`partialArgs`): each piece names
 * where it goes with a JSON path (`$.id`, `$.items[0].name`) and carries one
 * value; a string that `willContinue` is followed by more of the same string.
 */

export interface PartialArg {
  jsonPath?: string;
  stringValue?: string;
  numberValue?: number;
  boolValue?: boolean;
  nullValue?: unknown;
  willContinue?: boolean;
}

type Container = Record<string, unknown> | unknown[];

/** `$.a.b[0]['c d']` → ["a", "b", 0, "c d"] */
function pathKeys(path: string): (string | number)[] {
  const keys: (string | number)[] = [];
  for (const m of path.replace(/^\$/, "").matchAll(/\.([^.[\]]+)|\[(\d+)\]|\['([^']*)'\]|\["([^"]*)"\]/g)) {
    if (m[1] !== undefined) keys.push(m[1]);
    else if (m[2] !== undefined) keys.push(Number(m[2]));
    else keys.push(m[3] ?? m[4] ?? "");
  }
  return keys;
}

function pieceValue(piece: PartialArg): unknown {
  if (piece.stringValue !== undefined) return piece.stringValue;
  if (piece.numberValue !== undefined) return piece.numberValue;
  if (piece.boolValue !== undefined) return piece.boolValue;
  return null;
}

/** Puts one piece into the arguments being built; strings at the same path are joined. */
export function applyPartialArg(args: Record<string, unknown>, piece: PartialArg): void {
  const keys = pathKeys(piece.jsonPath ?? "$");
  const last = keys.pop();
  if (last === undefined) return;
  let at: Container = args;
  keys.forEach((key, i) => {
    const holder = at as Record<string | number, unknown>;
    if (typeof holder[key] !== "object" || holder[key] === null) holder[key] = typeof (keys[i + 1] ?? last) === "number" ? [] : {};
    at = holder[key] as Container;
  });
  const holder = at as Record<string | number, unknown>;
  const value = pieceValue(piece);
  const before = holder[last];
  holder[last] = typeof value === "string" && typeof before === "string" ? before + value : value;
}
