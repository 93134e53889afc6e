/** A value built on first use and kept: schema tables cost more to build than nova's whole start. */
export function once<T>(build: () => T): () => T {
  let value: T | undefined;
  return () => (value ??= build());
}
