/**
 * Which bash commands may run without asking. Every simple command a line
 * would run is found (see shell-words.ts), seen through wrappers such as
 * `sudo`, `env`, `timeout` or `bash -c`, and checked against the config rules
 * and the built-in patterns: `deny` wins, then `allow` (trusted exceptions),
 * then the built-in patterns and `ask`.
 *
 * The check fails closed: what it cannot resolve statically (an expansion in
 * a command name, a function, arithmetic, a script file, a program that is
 * not where programs live, an option it cannot place) is asked about. It is
 * an approval aid, not an isolation boundary; the sandbox is that.
 */
import { resolve } from "node:path";
import { commandReason, isOutside, STEERING_VARS, wrapperOf, type Place, type Reason } from "./command-rules.ts";
import { parseCommandLine, type Feature, type SimpleCommand } from "./shell-words.ts";

export interface PermissionRules {
  ask: string[];
  allow: string[];
  deny: string[];
}

export interface Verdict {
  verdict: "allow" | "ask" | "deny";
  /** the config rule that decided, when one did */
  rule?: string;
  /** why the command is flagged */
  reason?: string;
  /**
   * An "ask" whose every reason is about changing files in the working folder
   * (no write outside it, no network effect, no ask rule of the user's): an OS
   * sandbox confines such a command, so it may run unasked there.
   */
  confinable?: boolean;
}

/** One command as seen at one wrapper depth: `sudo env X=1 rm -rf a` is seen as itself, then `env X=1 rm -rf a`, then `rm -rf a`. */
interface View {
  words: string[];
}

interface Finding {
  /** index of the view the finding belongs to */
  depth: number;
  reason: string;
  /** reaches beyond the working folder: a write outside it, or a remote */
  escapes?: boolean;
}

const FEATURE_REASONS: Record<Feature, string> = {
  function: "it defines a shell function, which can stand in for any command",
  coproc: "it starts a coprocess",
  arithmetic: "it has arithmetic with names in it, which can run commands (indirect array subscripts)",
  transformation: "it has a ${…@…} transformation (@P runs prompt expansion)",
};

export function checkCommand(command: string, rules: PermissionRules, cwd: string): Verdict {
  const parsed = parseCommandLine(command);
  if (!parsed.ok) return { verdict: "ask", reason: `the command line could not be parsed (${parsed.error})` };
  const queue = [...parsed.commands];
  const root = resolve(cwd);
  const place: Place = { root, heres: [root] };
  let asked: Verdict | undefined = parsed.features.length > 0 ? { verdict: "ask", reason: FEATURE_REASONS[parsed.features[0]!] } : undefined;
  let escapes = false;
  for (let n = 0; n < queue.length; n++) {
    if (n > 1000) return { verdict: "ask", reason: "the command line nests too deeply to check" };
    const cmd = queue[n]!;
    const { views, findings, nested } = inspect(cmd, place);
    // a nested script runs where its wrapper stands: its commands are checked next, before the rest of the line
    const inserted: SimpleCommand[] = [];
    for (const text of nested) {
      const p = parseCommandLine(text);
      if (!p.ok) findings.push({ depth: 0, reason: `a nested command could not be parsed (${p.error})` });
      else {
        inserted.push(...p.commands);
        if (p.features.length > 0) findings.push({ depth: 0, reason: FEATURE_REASONS[p.features[0]!] });
      }
    }
    queue.splice(n + 1, 0, ...inserted);
    const texts = views.map((v) => v.words.join(" "));
    for (const rule of rules.deny) {
      if (texts.some((t) => matchesRule(rule, t))) return { verdict: "deny", rule, reason: `matches the deny rule "${rule}"` };
    }
    // An allow rule vouches for the view it matches and everything inside it, not for the wrappers around it.
    const allowedFrom = views.findIndex((_, d) => rules.allow.some((rule) => matchesRule(rule, texts[d]!)));
    const remaining = allowedFrom === -1 ? findings : findings.filter((f) => f.depth < allowedFrom);
    if (remaining.some((f) => f.escapes)) escapes = true;
    if (allowedFrom === -1 && rules.ask.some((rule) => texts.some((t) => matchesRule(rule, t)))) escapes = true;
    if (asked) continue;
    if (remaining.length > 0) {
      asked = { verdict: "ask", reason: remaining[0]!.reason };
      continue;
    }
    if (allowedFrom !== -1) continue;
    const askRule = rules.ask.find((rule) => texts.some((t) => matchesRule(rule, t)));
    if (askRule) asked = { verdict: "ask", rule: askRule, reason: `matches the ask rule "${askRule}"` };
  }
  return asked ? { ...asked, confinable: !escapes } : { verdict: "allow" };
}

/** A config rule is a glob over the command's words joined by spaces; a trailing ` *` also matches no arguments at all. */
export function matchesRule(rule: string, text: string): boolean {
  const pattern = rule.trim().replace(/\s+/g, " ");
  if (pattern.endsWith(" *") && text === pattern.slice(0, -2)) return true;
  let source = "";
  for (const c of pattern) source += c === "*" ? ".*" : c === "?" ? "." : c.replace(/[.+^${}()|[\]\\]/, "\\$&");
  return new RegExp(`^${source}$`, "s").test(text);
}

const RESERVED = new Set(["!", "{", "}", "if", "then", "else", "elif", "fi", "do", "done", "while", "until", "esac", "time"]);
const HEADER_KEYWORDS = new Set(["for", "select", "case", "in"]);
/**
 * Peels wrappers off one simple command, collecting the views, the reasons to
 * ask, and command strings it will run (`bash -c`, `eval`, `find -exec`, `watch`).
 */
function inspect(cmd: SimpleCommand, place: Place): { views: View[]; findings: Finding[]; nested: string[] } {
  const views: View[] = [];
  const findings: Finding[] = [];
  const nested: string[] = [];
  for (const r of cmd.redirects) {
    // `>&2` duplicates a descriptor; `>& file` writes a file.
    if (!r.op.includes(">") || (r.op.endsWith(">&") && /^(\d+|-)$/.test(r.target))) continue;
    // Redirects belong to the whole command line: no allow rule clears them.
    const reason = r.dynamic
      ? `it writes to a path only known when it runs (${r.op} ${r.target})`
      : isOutside(r.target, place)
        ? `it writes outside the working folder (${r.op} ${r.target})`
        : undefined;
    if (reason) findings.push({ depth: Number.NEGATIVE_INFINITY, reason, escapes: !r.dynamic });
  }

  let words = cmd.words;
  let dynamic = cmd.dynamic;
  let quoted = cmd.quoted;
  let glob = cmd.glob;
  const take = (n: number) => {
    words = words.slice(n);
    dynamic = dynamic.slice(n);
    quoted = quoted.slice(n);
    glob = glob.slice(n);
  };
  for (let depth = 0; depth < 64 && words.length > 0; depth++) {
    let assignments = 0;
    while (assignments < words.length && !quoted[assignments] && /^[A-Za-z_][A-Za-z0-9_]*(\[[^\]]*\])?\+?=/.test(words[assignments]!)) {
      const name = /^[A-Za-z_][A-Za-z0-9_]*/.exec(words[assignments]!)![0];
      if (STEERING_VARS.test(name)) findings.push({ depth: Number.NEGATIVE_INFINITY, reason: `it sets ${name}, which changes what later commands run or where` });
      assignments++;
    }
    take(assignments);
    if (words.length === 0) break;
    const name = words[0]!;
    views.push({ words: [programName(name), ...words.slice(1)] });
    const d = views.length - 1;
    const flag = (reason: Reason) => findings.push(typeof reason === "string" ? { depth: d, reason } : { depth: d, reason: reason.text, escapes: true });

    if (dynamic[0]) {
      flag(`the command name ${name} is only known when it runs`);
      break;
    }
    if (glob[0]) {
      flag(`the command name ${name} is a pattern that names some other file`);
      break;
    }
    if (quoted[0] && !RESERVED.has(name)) {
      flag(`the command name ${name} is quoted or escaped, which skips aliases and functions in ways the check cannot follow`);
      break;
    }
    if (RESERVED.has(name)) {
      take(1);
      continue;
    }
    if (HEADER_KEYWORDS.has(name)) break;

    const wrapper = wrapperOf(name, words.slice(1), place);
    if (wrapper) {
      if (wrapper.script !== undefined) nested.push(wrapper.script);
      if (wrapper.reason) flag(wrapper.reason);
      if (wrapper.skip === undefined) break;
      take(1 + wrapper.skip);
      continue;
    }
    const reason = commandReason(name, words.slice(1), { dynamic: dynamic.slice(1), glob: glob.slice(1) }, place);
    if (reason) flag(reason);
    break;
  }
  return { views, findings, nested };
}

/** The name a rule sees: `/usr/bin/rm` is `rm` (command-rules decides whether the path is a known program). */
function programName(word: string): string {
  const slash = word.lastIndexOf("/");
  return slash === -1 ? word : word.slice(slash + 1);
}
