/**
 * Which bash commands may run without asking. Every simple command a line
 * would run is found (see shell-words.ts), seen through wrappers such as
 * `sudo`, `env`, `xargs` or `bash -c`, and checked against the config rules
 * and the built-in dangerous patterns: `deny` wins, then `allow` (trusted
 * exceptions), then the built-in patterns and `ask`.
 */
import { homedir } from "node:os";
import { basename, isAbsolute, resolve, sep } from "node:path";
import { parseCommandLine, type SimpleCommand } from "./shell-words.ts";

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
  dynamic: boolean[];
}

/** The session cwd, and where the line has `cd`-ed to by now (undefined once that is unknown). */
interface Place {
  root: string;
  here: string | undefined;
}

interface Finding {
  /** index of the view the finding belongs to */
  depth: number;
  reason: string;
  /** reaches beyond the working folder: a write outside it, or a remote */
  escapes?: boolean;
}

/** A reason whose effect an OS sandbox confined to the workspace would not contain. */
interface Escaping {
  text: string;
  escapes: true;
}

const escaping = (text: string): Escaping => ({ text, escapes: true });

export function checkCommand(command: string, rules: PermissionRules, cwd: string): Verdict {
  const parsed = parseCommandLine(command);
  if (!parsed.ok) return { verdict: "ask", reason: `the command line could not be parsed (${parsed.error})` };
  const queue = [...parsed.commands];
  const place: Place = { root: resolve(cwd), here: resolve(cwd) };
  let asked: Verdict | undefined;
  let escapes = false;
  for (let n = 0; n < queue.length; n++) {
    if (n > 1000) return { verdict: "ask", reason: "the command line nests too deeply to check" };
    const cmd = queue[n]!;
    const { views, findings, nested } = inspect(cmd, place);
    const nestedParse = nested.map((text) => parseCommandLine(text));
    for (const p of nestedParse) {
      if (p.ok) queue.push(...p.commands);
      else findings.push({ depth: 0, reason: `a nested command could not be parsed (${p.error})` });
    }
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

const SHELLS = new Set(["bash", "sh", "zsh", "dash", "ksh", "mksh", "ash", "fish", "busybox-sh"]);
const RESERVED = new Set(["!", "{", "}", "if", "then", "else", "elif", "fi", "do", "done", "while", "until", "esac", "coproc"]);
const HEADER_KEYWORDS = new Set(["for", "select", "case", "function"]);
const PRIVILEGE = new Set(["sudo", "su", "doas", "pkexec", "run0"]);
const POWER = new Set(["shutdown", "reboot", "halt", "poweroff"]);
const SAFE_DEVICES = /^\/dev\/(null|stdout|stderr|stdin|tty|zero|fd\/\d+)$/;

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
  const take = (n: number) => {
    words = words.slice(n);
    dynamic = dynamic.slice(n);
  };
  for (let depth = 0; depth < 64 && words.length > 0; depth++) {
    let assignments = 0;
    while (assignments < words.length && /^[A-Za-z_][A-Za-z0-9_]*(\[[^\]]*\])?\+?=/.test(words[assignments]!)) assignments++;
    take(assignments);
    if (words.length === 0) break;
    views.push({ words: [commandName(words[0]!), ...words.slice(1)], dynamic });
    const d = views.length - 1;
    const flag = (reason: string | Escaping) =>
      findings.push(typeof reason === "string" ? { depth: d, reason } : { depth: d, reason: reason.text, escapes: true });
    const name = commandName(words[0]!);
    const args = words.slice(1);
    const argsDynamic = dynamic.slice(1);

    if (dynamic[0]) {
      flag(`the command name ${words[0]} is only known when it runs`);
      break;
    }
    if (RESERVED.has(name)) {
      take(1);
      continue;
    }
    if (HEADER_KEYWORDS.has(name)) break;
    if (PRIVILEGE.has(name)) flag(`it runs with other privileges (${name})`);

    const inner = unwrap(name, args);
    if (inner !== undefined) {
      if (inner.script !== undefined) nested.push(inner.script);
      if (inner.reason) flag(inner.reason);
      if (inner.skip === undefined) break;
      take(1 + inner.skip);
      continue;
    }
    if (name === "cd" || name === "pushd" || name === "popd") {
      place.here = changeDirectory(place.here, name, args, argsDynamic);
      break;
    }
    const reason = builtinReason(name, args, argsDynamic, place);
    if (reason) flag(reason);
    break;
  }
  return { views, findings, nested };
}

function commandName(word: string): string {
  return word.includes("/") ? basename(word) : word;
}

interface Unwrapped {
  /** words to drop after the wrapper's own name to reach the wrapped command; undefined when nothing is wrapped */
  skip?: number;
  /** a command string the wrapper will run */
  script?: string;
  reason?: string;
}

/** Index of the first operand after options; `withValue` lists options that take the next word as their value. */
function firstOperand(args: string[], withValue: Set<string>): number {
  let i = 0;
  while (i < args.length) {
    const a = args[i]!;
    if (a === "--") return i + 1;
    if (!a.startsWith("-") || a === "-") return i;
    i += withValue.has(a) ? 2 : 1;
  }
  return i;
}

function unwrap(name: string, args: string[]): Unwrapped | undefined {
  switch (name) {
    case "sudo":
    case "doas":
    case "run0":
      return { skip: firstOperand(args, new Set(["-u", "-g", "-C", "-D", "-h", "-p", "-r", "-t", "-U", "-T", "--user", "--group", "--chdir"])) };
    case "env": {
      let i = 0;
      while (i < args.length) {
        const a = args[i]!;
        if (a === "--") {
          i++;
          break;
        }
        if (a === "-S" || a === "--split-string") return { script: args.slice(i + 1).join(" ") };
        if (a.startsWith("--split-string=")) return { script: [a.slice(15), ...args.slice(i + 1)].join(" ") };
        if (a.startsWith("-S")) return { script: [a.slice(2), ...args.slice(i + 1)].join(" ") };
        if (a === "-u" || a === "-C" || a === "--unset" || a === "--chdir") i += 2;
        else if (a.startsWith("-")) i++;
        else if (/^[A-Za-z_][A-Za-z0-9_]*=/.test(a)) i++;
        else break;
      }
      return { skip: i };
    }
    case "nohup":
    case "command":
    case "builtin":
    case "setsid":
    case "time":
    case "unbuffer":
    case "busybox":
    case "stdbuf":
    case "ionice":
    case "chrt":
    case "taskset":
      return { skip: firstOperand(args, new Set(["-o", "-i", "-e", "-c", "-n", "-p", "--output", "--input", "--error", "--class", "--classdata"])) };
    case "exec":
      return { skip: firstOperand(args, new Set(["-a"])) };
    case "nice":
      return { skip: firstOperand(args, new Set(["-n", "--adjustment"])) };
    case "timeout": {
      const i = firstOperand(args, new Set(["-s", "-k", "--signal", "--kill-after"]));
      return { skip: i + 1 };
    }
    case "xargs":
      return {
        skip: firstOperand(
          args,
          new Set(["-I", "-L", "-n", "-P", "-d", "-E", "-s", "-a", "--arg-file", "--delimiter", "--max-args", "--max-procs", "--max-lines", "--replace"]),
        ),
      };
    case "eval":
      return { script: args.join(" ") };
    case "watch": {
      const i = firstOperand(args, new Set(["-n", "-d", "--interval", "--differences"]));
      return { script: args.slice(i).join(" ") };
    }
    case "su": {
      const c = args.findIndex((a) => a === "-c" || a === "--command");
      return c !== -1 && args[c + 1] !== undefined ? { script: args[c + 1] } : {};
    }
    case "find":
      return findExec(args);
    case "source":
    case ".": {
      const file = args[0] ?? "";
      return /^(<\(|\/dev\/stdin$|-$)/.test(file) || file === "" ? { reason: `${name} runs commands that cannot be checked (${file || "no file"})` } : undefined;
    }
    default:
      if (SHELLS.has(name)) return shellScript(name, args);
      return undefined;
  }
}

/** `bash -c '…'` runs its string; a shell with no script reads commands from its input, which cannot be checked. */
function shellScript(name: string, args: string[]): Unwrapped {
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === "--") break;
    if (/^-[A-Za-z]*c[A-Za-z]*$/.test(a) || a === "--command") {
      const script = args.slice(i + 1).find((x) => !x.startsWith("-") || x === "-");
      return script !== undefined ? { script } : { reason: `${name} -c has no command` };
    }
    if (a === "-o" || a === "+o" || a === "--rcfile" || a === "--init-file") i++;
    else if (!a.startsWith("-") && !a.startsWith("+")) {
      if (a.startsWith("<(")) return { reason: `${name} runs a script produced by another command (${a})` };
      return {};
    }
  }
  return { reason: `${name} runs commands from its input, which cannot be checked` };
}

function findExec(args: string[]): Unwrapped {
  const scripts: string[] = [];
  let reason: string | undefined;
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === "-delete") reason = "find -delete removes files";
    if (a === "-exec" || a === "-execdir" || a === "-ok" || a === "-okdir") {
      let j = i + 1;
      while (j < args.length && args[j] !== ";" && args[j] !== "+") j++;
      scripts.push(args.slice(i + 1, j).map(quoteWord).join(" "));
      i = j;
    }
  }
  return { script: scripts.length > 0 ? scripts.join("; ") : undefined, reason };
}

function quoteWord(w: string): string {
  return /^[A-Za-z0-9_@%+=:,./{}-]+$/.test(w) ? w : `'${w.replaceAll("'", "'\\''")}'`;
}

/** Short-option clusters (`-rf`) and long options, GNU style, including unambiguous long-option prefixes. */
function hasOption(args: string[], short: string, longs: string[], minLong = 4): boolean {
  for (const a of args) {
    if (a === "--") return false;
    if (a.startsWith("--")) {
      const name = a.split("=")[0]!;
      if (name.length >= minLong && longs.some((l) => l.startsWith(name))) return true;
    } else if (a.startsWith("-") && a.length > 1 && [...short].some((c) => a.slice(1).includes(c))) return true;
  }
  return false;
}

function operands(args: string[]): string[] {
  const out: string[] = [];
  let options = true;
  for (const a of args) {
    if (options && a === "--") options = false;
    else if (!options || !a.startsWith("-") || a === "-") out.push(a);
  }
  return out;
}

function builtinReason(name: string, args: string[], argsDynamic: boolean[], place: Place): string | Escaping | undefined {
  const anyDynamic = argsDynamic.some(Boolean);
  const outside = (paths: string[]) => paths.find((p) => isOutside(p, place));
  switch (name) {
    case "rm": {
      const p = outside(operands(args));
      if (hasOption(args, "rRf", ["--recursive", "--force"], 5)) return p ? escaping("rm is recursive or forced") : "rm is recursive or forced";
      if (anyDynamic) return "rm has arguments that are only known when it runs";
      return p ? escaping(`rm deletes outside the working folder (${p})`) : undefined;
    }
    case "git":
      return gitReason(args, anyDynamic);
    case "dd":
      return "dd writes raw data";
    case "chmod":
    case "chown":
    case "chgrp":
      if (hasOption(args, "R", ["--recursive"], 5)) return `${name} -R changes a whole tree`;
      if (anyDynamic) return `${name} has arguments that are only known when it runs`;
      return undefined;
    case "systemctl":
      return ["poweroff", "reboot", "halt", "kexec"].includes(operands(args)[0] ?? "") ? `systemctl ${operands(args)[0]} stops the machine` : undefined;
    case "init":
    case "telinit":
      return ["0", "6"].includes(args[0] ?? "") ? `${name} ${args[0]} stops the machine` : undefined;
    case "tee":
    case "touch":
    case "mkdir":
    case "rmdir":
    case "truncate":
    case "shred":
    case "unlink":
    case "mv": {
      const p = outside(operands(args));
      return p ? escaping(`${name} writes outside the working folder (${p})`) : undefined;
    }
    case "cp":
    case "install":
    case "ln":
    case "rsync": {
      const target = targetDirectory(args) ?? operands(args).at(-1);
      return target !== undefined && isOutside(target, place) ? escaping(`${name} writes outside the working folder (${target})`) : undefined;
    }
    default:
      if (POWER.has(name)) return `${name} stops the machine`;
      if (name === "mkfs" || name.startsWith("mkfs.")) return `${name} formats a file system`;
      return undefined;
  }
}

function targetDirectory(args: string[]): string | undefined {
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === "-t" || a === "--target-directory") return args[i + 1];
    if (a.startsWith("--target-directory=")) return a.slice("--target-directory=".length);
    if (/^-[a-zA-Z]*t.+/.test(a) && !a.startsWith("--")) return a.slice(a.indexOf("t") + 1);
  }
  return undefined;
}

const GIT_GLOBAL_WITH_VALUE = new Set(["-C", "-c", "--git-dir", "--work-tree", "--namespace", "--super-prefix", "--config-env", "--exec-path"]);

function gitReason(args: string[], anyDynamic: boolean): string | Escaping | undefined {
  let i = 0;
  while (i < args.length && args[i]!.startsWith("-")) i += GIT_GLOBAL_WITH_VALUE.has(args[i]!) ? 2 : 1;
  const sub = args[i];
  const rest = args.slice(i + 1);
  switch (sub) {
    case "push":
      if (hasOption(rest, "f", ["--force", "--force-with-lease", "--force-if-includes", "--mirror"], 5)) return escaping("git push overwrites remote history (force)");
      if (operands(rest).some((r) => r.startsWith("+"))) return escaping("git push overwrites remote history (+refspec)");
      return anyDynamic ? escaping("git push has arguments that are only known when it runs") : undefined;
    case "reset":
      return hasOption(rest, "", ["--hard"], 4) ? "git reset --hard discards changes" : undefined;
    case "clean":
      return hasOption(rest, "f", ["--force"], 4) ? "git clean -f deletes untracked files" : undefined;
    default:
      return undefined;
  }
}

/** Where `cd` leaves the line: later relative paths resolve there; undefined when it cannot be known. */
function changeDirectory(here: string | undefined, name: string, args: string[], argsDynamic: boolean[]): string | undefined {
  if (name === "popd" || argsDynamic.some(Boolean)) return undefined;
  const target = operands(args)[0];
  if (target === undefined) return name === "cd" ? homedir() : undefined;
  if (target === "-" || /^[+-]\d+$/.test(target)) return undefined;
  const expanded = expandHome(target);
  if (isAbsolute(expanded)) return resolve(expanded);
  return here === undefined ? undefined : resolve(here, expanded);
}

function expandHome(path: string): string {
  if (path === "~") return homedir();
  if (path.startsWith("~/")) return homedir() + path.slice(1);
  // `~user` is some other home: outside the working folder, wherever it is.
  return path.startsWith("~") ? "/" : path;
}

/** Whether a path written by a command lands outside the working folder; unknown values count as outside. */
function isOutside(target: string, place: Place): boolean {
  if (SAFE_DEVICES.test(target)) return false;
  if (/[$`]/.test(target)) return true;
  const expanded = expandHome(target);
  if (!isAbsolute(expanded) && place.here === undefined) return true;
  const full = resolve(place.here ?? place.root, expanded);
  const root = place.root;
  return full !== root && !full.startsWith(root.endsWith(sep) ? root : root + sep);
}
