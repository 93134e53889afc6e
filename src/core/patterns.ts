/** Name patterns of Pi's flags (--tools, --exclude-tools, --models): `*` matches anything, case-insensitive; without `*`, the exact name. */
export function matcher(pattern: string): (name: string) => boolean {
  if (!pattern.includes("*")) return (name) => name === pattern;
  const source = pattern
    .split("*")
    .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, "\\$&"))
    .join(".*");
  const regex = new RegExp(`^${source}$`, "i");
  return (name) => regex.test(name);
}
