/**
 * `remember: "always"`: one rule added to the user's config file, the rest of
 * the file left as it was (comments, order, `${ENV}` references), written
 * atomically (a temporary file renamed over it) so a crash never leaves half
 * a config behind.
 */
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { isSeq, parseDocument } from "yaml";

/** Adds `value` to the list at `path` (e.g. permissions.bash.allow) unless it is there already. */
export function addConfigRule(file: string, path: string[], value: string): void {
  const text = existsSync(file) ? readFileSync(file, "utf8") : "";
  const doc = parseDocument(text);
  if (doc.errors.length > 0) throw new Error(`${file} does not parse as YAML (${doc.errors[0]!.message}); the rule was not saved`);
  const list = doc.getIn(path, true);
  if (list !== undefined && !isSeq(list)) throw new Error(`${path.join(".")} in ${file} is not a list; the rule was not saved`);
  if (isSeq(list) && list.items.some((item) => String((item as { value?: unknown })?.value ?? item) === value)) return;
  doc.addIn(path, value);
  mkdirSync(dirname(file), { recursive: true });
  const temp = `${file}.${process.pid}.tmp`;
  writeFileSync(temp, doc.toString(), { mode: 0o600 });
  renameSync(temp, file);
}
