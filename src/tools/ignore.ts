/**
 * gitignore semantics for `.gitignore` and `.ignore` files, applied whether or
 * not the folder is a git repository: `#` comments, `!` negation, a trailing `/`
 * for folders only, a `/` anywhere else anchoring the pattern to the file's own
 * folder, `*`, `?`, `[…]` and `**`. The last matching rule wins, deeper files
 * after shallower ones.
 */
import { existsSync, readFileSync } from "node:fs";
import { dirname, join, relative, sep } from "node:path";

export const IGNORE_FILES = [".gitignore", ".ignore"] as const;

export interface IgnoreRule {
  regex: RegExp;
  negate: boolean;
  dirOnly: boolean;
}

/**
 * The rules of one folder's ignore files. A path relative to the walk root is
 * turned into a path relative to that folder by dropping `strip` and adding
 * `prepend` (for folders above the walk root).
 */
export interface IgnoreLayer {
  strip: string;
  prepend: string;
  rules: IgnoreRule[];
}

export function parseIgnore(text: string): IgnoreRule[] {
  const rules: IgnoreRule[] = [];
  for (const raw of text.split("\n")) {
    const rule = compileRule(raw.endsWith("\r") ? raw.slice(0, -1) : raw);
    if (rule) rules.push(rule);
  }
  return rules;
}

function compileRule(line: string): IgnoreRule | undefined {
  let p = line.replace(/(?<!\\)\s+$/, "");
  if (p === "" || p.startsWith("#")) return undefined;
  const negate = p.startsWith("!");
  if (negate) p = p.slice(1);
  else if (p.startsWith("\\!") || p.startsWith("\\#")) p = p.slice(1);
  const dirOnly = p.endsWith("/");
  p = p.replace(/\/+$/, "");
  if (p === "") return undefined;
  const anchored = p.includes("/");
  if (p.startsWith("/")) p = p.slice(1);
  const body = globToRegexSource(p);
  try {
    return { regex: new RegExp(anchored ? `^${body}$` : `^(?:.*/)?${body}$`), negate, dirOnly };
  } catch {
    // git skips a pattern it cannot use (for example a reversed range `[z-a]`); so do we
    return undefined;
  }
}

/** Regex source for one gitignore glob, where `*` and `?` never cross a `/`. */
export function globToRegexSource(glob: string): string {
  let out = "";
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i]!;
    if (c === "*") {
      if (glob[i + 1] === "*") {
        const atSegmentStart = i === 0 || glob[i - 1] === "/";
        if (atSegmentStart && glob[i + 2] === "/") {
          out += "(?:.*/)?";
          i += 2;
          continue;
        }
        if (atSegmentStart && i + 2 === glob.length) {
          out += ".*";
          i += 1;
          continue;
        }
        i += 1;
      }
      out += "[^/]*";
    } else if (c === "?") {
      out += "[^/]";
    } else if (c === "[") {
      const close = glob.indexOf("]", i + 2);
      if (close === -1) {
        out += "\\[";
        continue;
      }
      let set = glob.slice(i + 1, close);
      if (set.startsWith("!") || set.startsWith("^")) set = `^${set.slice(1)}`;
      out += `[${set}]`;
      i = close;
    } else if (c === "\\" && i + 1 < glob.length) {
      out += escapeRegex(glob[++i]!);
    } else {
      out += escapeRegex(c);
    }
  }
  return out;
}

function escapeRegex(c: string): string {
  return /[.*+?^${}()|[\]\\/]/.test(c) ? `\\${c}` : c;
}

/** Whether the walk-root-relative `rel` (with `/` separators) is ignored by the layers, shallowest first. */
export function isIgnored(layers: readonly IgnoreLayer[], rel: string, isDir: boolean): boolean {
  for (let l = layers.length - 1; l >= 0; l--) {
    const layer = layers[l]!;
    if (!rel.startsWith(layer.strip)) continue;
    const local = layer.prepend + rel.slice(layer.strip.length);
    for (let r = layer.rules.length - 1; r >= 0; r--) {
      const rule = layer.rules[r]!;
      if (rule.dirOnly && !isDir) continue;
      if (rule.regex.test(local)) return !rule.negate;
    }
  }
  return false;
}

/** The rules in `dir`'s ignore files, or undefined when it has none. */
export function readIgnoreLayer(dir: string, strip: string, prepend = ""): IgnoreLayer | undefined {
  const rules: IgnoreRule[] = [];
  for (const name of IGNORE_FILES) {
    const path = join(dir, name);
    if (!existsSync(path)) continue;
    try {
      rules.push(...parseIgnore(readFileSync(path, "utf8")));
    } catch {
      // an unreadable ignore file ignores nothing, as in git
    }
  }
  return rules.length > 0 ? { strip, prepend, rules } : undefined;
}

/**
 * Ignore files above the walk root that still apply to it: up to the enclosing
 * git repository's top, or, outside a repository, up to the session cwd.
 */
export function ancestorLayers(root: string, cwd: string): IgnoreLayer[] {
  if (existsSync(join(root, ".git"))) return [];
  const above: string[] = [];
  let top: string | undefined;
  for (let dir = dirname(root); ; dir = dirname(dir)) {
    above.push(dir);
    if (existsSync(join(dir, ".git"))) {
      top = dir;
      break;
    }
    if (dirname(dir) === dir) break;
  }
  const inCwd = (dir: string) => dir === cwd || dir.startsWith(cwd + sep);
  const applicable = top ? above : above.filter(inCwd);
  const layers: IgnoreLayer[] = [];
  for (const dir of applicable.reverse()) {
    const prepend = `${relative(dir, root).split(sep).join("/")}/`;
    const layer = readIgnoreLayer(dir, "", prepend);
    if (layer) layers.push(layer);
  }
  return layers;
}
