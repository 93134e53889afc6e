/**
 * The config file through Bun's native YAML parser when that gives exactly
 * what the `yaml` package would: loading and running `yaml`'s parser is most
 * of the time a config file adds to a start. Texts whose meaning the two could
 * differ on, or that the package would reject while Bun accepts (a second
 * document, a key given twice, flow mappings where a duplicate could hide),
 * return undefined and go the `yaml` package's way, as does every error.
 * test/config/fast-yaml.test.ts checks both agree.
 */

/** The value of `text`, or undefined when only the `yaml` package may answer. */
export function fastYaml(text: string): { value: unknown } | undefined {
  if (!plainEnough(text)) return undefined;
  try {
    return { value: Bun.YAML.parse(text) };
  } catch {
    return undefined;
  }
}

const KEY_LINE = /^( *)((?:- +)*)((?:[^\s#'"?&*!|>%@`,[\]{}-][^:#]*?)|'[^']*'|"[^"\\]*"): *(?:$|#|[^:\s])/;

/** No document markers, directives, flow mappings, tabs in indentation, and no key twice in one block mapping. */
function plainEnough(text: string): boolean {
  if (/^(?:---|\.\.\.|%)/m.test(text) || /(?:^|[^$]){/.test(text) || /^ *\t/m.test(text) || text.includes("<<")) return false;
  const stack: { indent: number; keys: Set<string> }[] = [];
  for (const line of text.split("\n")) {
    const match = KEY_LINE.exec(line);
    if (!match) continue;
    const indent = match[1]!.length + match[2]!.length;
    // a sequence item starts a fresh mapping at its content's indent
    const fresh = match[2]!.length > 0;
    while (stack.length > 0 && (stack.at(-1)!.indent > indent || (fresh && stack.at(-1)!.indent === indent))) stack.pop();
    let top = stack.at(-1);
    if (!top || top.indent !== indent) stack.push((top = { indent, keys: new Set() }));
    const key = match[3]!.replace(/^['"]|['"]$/g, "").trim();
    if (top.keys.has(key)) return false;
    top.keys.add(key);
  }
  return true;
}
