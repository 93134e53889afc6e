/**
 * The names MCP tools and prompts get in nova: `mcp__<server>__<tool>`, kept
 * to what every provider accepts (`^[A-Za-z0-9_-]{1,64}$`), and unique.
 */
const MAX = 64;

export function qualifiedName(server: string, item: string): string {
  return `mcp__${clean(server)}__${clean(item)}`;
}

/**
 * Gives each wanted name a unique final form, in order: a name that is too
 * long is cut and marked with a hash of the whole, and a name already taken
 * (by a built-in tool or an earlier server) gets `_2`, `_3`, ….
 */
export function uniqueNames(wanted: string[], taken: Iterable<string> = []): string[] {
  const used = new Set(taken);
  return wanted.map((name) => {
    let base = name.length > MAX ? `${name.slice(0, MAX - 9)}_${hash(name)}` : name;
    let candidate = base;
    for (let n = 2; used.has(candidate); n++) {
      const suffix = `_${n}`;
      if (base.length + suffix.length > MAX) base = base.slice(0, MAX - suffix.length);
      candidate = base + suffix;
    }
    used.add(candidate);
    return candidate;
  });
}

function clean(part: string): string {
  return part.replace(/[^A-Za-z0-9_-]/g, "_") || "_";
}

function hash(text: string): string {
  return Bun.hash.crc32(text).toString(16).padStart(8, "0");
}
