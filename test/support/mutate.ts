/**
 * Deterministic near-misses of valid values, for checking that a fast path
 * and the zod schema it stands in for agree: each is a valid value with one
 * value somewhere swapped for another type, a key dropped, or a key added.
 */
const odd: unknown[] = [null, 0, -1, 1.5, "", "x", "a/b", true, [], {}, ["text"], { id: "m" }, "http://h", Number.NaN, 2 ** 60];

export function mutated(valid: unknown[], count: number, extraKeys: string[] = ["extra"], seed = 7): unknown[] {
  const random = () => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed / 2147483648;
  };
  const pick = <T>(items: T[]) => items[Math.floor(random() * items.length)]!;
  const mutate = (value: unknown): unknown => {
    if (value === null || typeof value !== "object" || random() < 0.3) return pick(odd);
    const copy: Record<string, unknown> = Array.isArray(value) ? ({ ...value } as Record<string, unknown>) : { ...(value as Record<string, unknown>) };
    const keys = Object.keys(copy);
    if (keys.length === 0 || random() < 0.15) copy[pick(extraKeys)] = pick(odd);
    else {
      const key = pick(keys);
      if (random() < 0.1) delete copy[key];
      else copy[key] = mutate(copy[key]);
    }
    return Array.isArray(value) ? Object.values(copy) : copy;
  };
  return Array.from({ length: count }, (_, i) => mutate(valid[i % valid.length]));
}
