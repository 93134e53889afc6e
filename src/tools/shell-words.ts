/**
 * A command-line parser for the bash permission check: it does not run or
 * expand anything, it finds every simple command a line would run — through
 * `;`, `&&`, `||`, pipes, `&`, newlines, subshells, `{ …; }`, `$(…)`,
 * backticks, `<(…)`, `${…}` and unquoted here-documents — and gives each its
 * words with quotes and escapes removed, plus its redirections.
 */

export interface Redirect {
  op: string;
  target: string;
  /** the target holds an expansion (`$x`, `$(…)`, …) whose value is unknown here */
  dynamic: boolean;
}

export interface SimpleCommand {
  words: string[];
  /** per word: it holds an expansion whose value is unknown here */
  dynamic: boolean[];
  /** per word: it was quoted or escaped (all or in part) */
  quoted: boolean[];
  /** per word: it holds an unquoted glob character (`*`, `?`, `[`), so it may become other words */
  glob: boolean[];
  redirects: Redirect[];
}

/**
 * Constructs whose effect the parser cannot follow statically: a function
 * definition, `coproc`, arithmetic that names variables (an indirect array
 * subscript runs commands), a `${…@…}` transformation (`@P` runs prompt
 * expansion). The permission check asks about each.
 */
export type Feature = "function" | "coproc" | "arithmetic" | "transformation";

export type ParseResult = { ok: true; commands: SimpleCommand[]; features: Feature[] } | { ok: false; error: string };

class ParseError extends Error {}

export function parseCommandLine(input: string): ParseResult {
  try {
    const commands: SimpleCommand[] = [];
    const features = new Set<Feature>();
    new Parser(input, commands, features).parse();
    return { ok: true, commands, features: [...features] };
  } catch (err) {
    if (err instanceof ParseError) return { ok: false, error: err.message };
    throw err;
  }
}

const REDIRECT = /(\d+|&)?(<<<|<<-|<<|<>|<&|<|>>|>&|>\||>)/y;
const OPERATORS = ["&&", "||", ";;", "|&", ";", "&", "|", "(", ")"];
const WORD_END = new Set([" ", "\t", "\n", ";", "&", "|", "(", ")", "<", ">"]);
const NAME = /[A-Za-z_][A-Za-z0-9_]*|[0-9@*#?$!-]/y;

interface Heredoc {
  delimiter: string;
  stripTabs: boolean;
  expands: boolean;
}

class Parser {
  private i = 0;
  private current: SimpleCommand = emptyCommand();
  private heredocs: Heredoc[] = [];

  constructor(
    private readonly s: string,
    private readonly out: SimpleCommand[],
    private readonly features: Set<Feature>,
  ) {}

  parse(): void {
    const s = this.s;
    while (this.i < s.length) {
      const c = s[this.i]!;
      if (c === " " || c === "\t" || c === "\r") {
        this.i++;
      } else if (c === "\\" && s[this.i + 1] === "\n") {
        this.i += 2;
      } else if (c === "\n") {
        this.finish();
        this.i++;
        this.readHeredocBodies();
      } else if (c === "#") {
        const nl = s.indexOf("\n", this.i);
        this.i = nl === -1 ? s.length : nl;
      } else if ((c === "<" || c === ">") && s[this.i + 1] === "(") {
        this.pushWord(this.readWord());
      } else if (c === "(" && s[this.i + 1] === "(" && this.atArithmeticCommand()) {
        // `((…))` is arithmetic, not two subshells: its `<<` is a shift, not a here-document
        this.arithmetic(this.readBalanced("(", ")"));
      } else if (c === "(" && s[this.i + 1] === ")" && this.current.words.length === 1) {
        this.features.add("function");
        this.i += 2;
        this.finish();
      } else if (this.tryRedirect()) {
        // consumed
      } else if (this.tryOperator()) {
        this.finish();
      } else {
        this.pushWord(this.readWord());
      }
    }
    this.finish();
    if (this.heredocs.length > 0) throw new ParseError(`here-document delimited by ${this.heredocs[0]!.delimiter} is never closed`);
  }

  /** `((` starts an arithmetic command where a command starts, and after `for`. */
  private atArithmeticCommand(): boolean {
    const words = this.current.words;
    return words.length === 0 || (words.length === 1 && words[0] === "for");
  }

  /** Arithmetic with a name or an expansion in it may run commands (`x='a[$(cmd)]'; ((x))`). */
  private arithmetic(text: string): void {
    if (/[A-Za-z_$`]/.test(text)) this.features.add("arithmetic");
    this.scanSubstitutions(text);
  }

  private finish(): void {
    const first = this.current.words[0];
    if (first === "function" && !this.current.quoted[0]) this.features.add("function");
    if (first === "coproc" && !this.current.quoted[0]) this.features.add("coproc");
    if (this.current.words.length > 0 || this.current.redirects.length > 0) this.out.push(this.current);
    this.current = emptyCommand();
  }

  private pushWord(word: Word): void {
    this.current.words.push(word.text);
    this.current.dynamic.push(word.dynamic);
    this.current.quoted.push(word.quoted);
    this.current.glob.push(word.glob);
  }

  private tryOperator(): boolean {
    for (const op of OPERATORS) {
      if (this.s.startsWith(op, this.i)) {
        this.i += op.length;
        return true;
      }
    }
    return false;
  }

  private tryRedirect(): boolean {
    REDIRECT.lastIndex = this.i;
    const m = REDIRECT.exec(this.s);
    if (!m) return false;
    // `&&`, `&;` and a lone `&` are operators, not `&>`.
    if (m[1] === "&" && !m[2]!.startsWith(">")) return false;
    const op = m[0];
    this.i += op.length;
    while (this.s[this.i] === " " || this.s[this.i] === "\t") this.i++;
    if (this.i >= this.s.length || WORD_END.has(this.s[this.i]!)) throw new ParseError(`redirection ${op} has no target`);
    const rawStart = this.i;
    const target = this.readWord();
    if (m[2] === "<<" || m[2] === "<<-") {
      const raw = this.s.slice(rawStart, this.i);
      this.heredocs.push({ delimiter: target.text, stripTabs: m[2] === "<<-", expands: !/['"\\]/.test(raw) });
    }
    this.current.redirects.push({ op, target: target.text, dynamic: target.dynamic });
    return true;
  }

  /** Skips here-document bodies after a newline; an unquoted delimiter means the body is expanded, so it is scanned for substitutions. */
  private readHeredocBodies(): void {
    while (this.heredocs.length > 0) {
      const doc = this.heredocs.shift()!;
      const bodyStart = this.i;
      for (;;) {
        if (this.i >= this.s.length) throw new ParseError(`here-document delimited by ${doc.delimiter} is never closed`);
        const nl = this.s.indexOf("\n", this.i);
        const end = nl === -1 ? this.s.length : nl;
        let line = this.s.slice(this.i, end);
        if (doc.stripTabs) line = line.replace(/^\t+/, "");
        const lineStart = this.i;
        this.i = nl === -1 ? end : end + 1;
        if (line === doc.delimiter) {
          if (doc.expands) this.scanSubstitutions(this.s.slice(bodyStart, lineStart));
          break;
        }
      }
    }
  }

  /** Parses the commands inside `$(…)` and backticks found in text that is expanded but not split into words. */
  private scanSubstitutions(text: string): void {
    const inner = new Parser(text, this.out, this.features);
    while (inner.i < text.length) {
      const c = text[inner.i]!;
      if (c === "\\") inner.i += 2;
      else if (c === "$" || c === "`") inner.readDollarOrBacktick();
      else inner.i++;
    }
  }

  private readWord(): Word {
    const s = this.s;
    let text = "";
    let dynamic = false;
    let quoted = false;
    let glob = false;
    if ((s[this.i] === "<" || s[this.i] === ">") && s[this.i + 1] === "(") {
      const start = this.i;
      this.i++;
      this.parseNested(this.readBalanced("(", ")"));
      return { text: s.slice(start, this.i), dynamic: true, quoted: false, glob: false };
    }
    while (this.i < s.length && !WORD_END.has(s[this.i]!)) {
      const c = s[this.i]!;
      if (c === "\\" || c === "'" || c === '"') quoted = true;
      if (c === "$" && (s[this.i + 1] === "'" || s[this.i + 1] === '"')) quoted = true;
      // `[` opens a pattern only when its `]` follows in the same word (`[ -t 1 ]` is the test command)
      if (c === "*" || c === "?" || (c === "[" && this.closesBracket(this.i + 1))) glob = true;
      if (c === "\\") {
        if (this.i + 1 >= s.length) throw new ParseError("the line ends with a lone backslash");
        if (s[this.i + 1] !== "\n") text += s[this.i + 1];
        this.i += 2;
      } else if (c === "'") {
        const close = s.indexOf("'", this.i + 1);
        if (close === -1) throw new ParseError("unbalanced single quote");
        text += s.slice(this.i + 1, close);
        this.i = close + 1;
      } else if (c === "$" && s[this.i + 1] === "'") {
        text += this.readAnsiC();
      } else if (c === '"' || (c === "$" && s[this.i + 1] === '"')) {
        if (c === "$") this.i++;
        const part = this.readDoubleQuoted();
        text += part.text;
        dynamic ||= part.dynamic;
      } else if (c === "$" || c === "`") {
        text += this.readDollarOrBacktick();
        dynamic = true;
      } else if (c === "{" && /^\{[^{}\s]*(,|\.\.)[^{}\s]*\}/.test(s.slice(this.i))) {
        // brace expansion turns one word into several: its value is not this text
        const close = s.indexOf("}", this.i);
        text += s.slice(this.i, close + 1);
        this.i = close + 1;
        dynamic = true;
      } else {
        text += c;
        this.i++;
      }
    }
    return { text, dynamic, quoted, glob };
  }

  private closesBracket(from: number): boolean {
    for (let j = from; j < this.s.length && !WORD_END.has(this.s[j]!); j++) if (this.s[j] === "]") return true;
    return false;
  }

  private readDoubleQuoted(): { text: string; dynamic: boolean } {
    const s = this.s;
    this.i++;
    let text = "";
    let dynamic = false;
    while (this.i < s.length && s[this.i] !== '"') {
      const c = s[this.i]!;
      if (c === "\\" && this.i + 1 < s.length) {
        const next = s[this.i + 1]!;
        if (next === "\n") {
          // line continuation
        } else if ('$`"\\'.includes(next)) text += next;
        else text += `\\${next}`;
        this.i += 2;
      } else if (c === "$" || c === "`") {
        text += this.readDollarOrBacktick();
        dynamic = true;
      } else {
        text += c;
        this.i++;
      }
    }
    if (this.i >= s.length) throw new ParseError("unbalanced double quote");
    this.i++;
    return { text, dynamic };
  }

  /** At `$` or a backtick: reads the expansion, parsing any command inside it; returns its raw text. */
  private readDollarOrBacktick(): string {
    const s = this.s;
    const start = this.i;
    if (s[this.i] === "`") {
      let j = this.i + 1;
      let inner = "";
      for (; j < s.length && s[j] !== "`"; j++) {
        if (s[j] === "\\" && "`\\$".includes(s[j + 1] ?? "")) inner += s[++j];
        else inner += s[j];
      }
      if (j >= s.length) throw new ParseError("unbalanced backtick");
      this.i = j + 1;
      this.parseNested(inner);
      return s.slice(start, this.i);
    }
    const next = s[this.i + 1];
    if (next === "(" && s[this.i + 2] === "(") {
      // `$((…))` is arithmetic, or a command substitution starting with a subshell: either way, fail closed on names
      this.i++;
      const inner = this.readBalanced("(", ")");
      this.arithmetic(inner);
      if (!inner.endsWith(")")) this.parseNested(inner);
    } else if (next === "(") {
      this.i++;
      this.parseNested(this.readBalanced("(", ")"));
    } else if (next === "{") {
      this.i++;
      const inner = this.readBalanced("{", "}");
      if (/@[A-Za-z]$/.test(inner)) this.features.add("transformation");
      this.scanSubstitutions(inner);
    } else {
      NAME.lastIndex = this.i + 1;
      const m = NAME.exec(s);
      this.i += 1 + (m ? m[0].length : 0);
    }
    return s.slice(start, this.i);
  }

  /** At an opening bracket: the text up to its partner, skipping quoted parts; leaves `i` after the partner. */
  private readBalanced(open: string, close: string): string {
    const s = this.s;
    const start = this.i + 1;
    let depth = 0;
    for (let j = this.i; j < s.length; j++) {
      const c = s[j];
      if (c === "\\") j++;
      else if (c === "'") {
        j = s.indexOf("'", j + 1);
        if (j === -1) break;
      } else if (c === '"') {
        j = closingDoubleQuote(s, j);
        if (j === -1) break;
      } else if (c === open) depth++;
      else if (c === close && --depth === 0) {
        this.i = j + 1;
        return s.slice(start, j);
      }
    }
    throw new ParseError(`unbalanced ${open}`);
  }

  private parseNested(text: string): void {
    new Parser(text, this.out, this.features).parse();
  }

  private readAnsiC(): string {
    const s = this.s;
    let j = this.i + 2;
    let text = "";
    for (; j < s.length && s[j] !== "'"; j++) {
      if (s[j] !== "\\") {
        text += s[j];
        continue;
      }
      const e = s[++j];
      const simple: Record<string, string> = { n: "\n", t: "\t", r: "\r", a: "\x07", b: "\b", e: "\x1b", E: "\x1b", f: "\f", v: "\v", "\\": "\\", "'": "'", '"': '"', "?": "?" };
      if (e !== undefined && e in simple) text += simple[e];
      else if (e === "x" || e === "u" || e === "U") {
        const max = e === "x" ? 2 : e === "u" ? 4 : 8;
        const hex = /^[0-9a-fA-F]+/.exec(s.slice(j + 1, j + 1 + max))?.[0] ?? "";
        text += hex ? String.fromCodePoint(Number.parseInt(hex, 16)) : `\\${e}`;
        j += hex.length;
      } else if (e !== undefined && /[0-7]/.test(e)) {
        const oct = /^[0-7]{1,3}/.exec(s.slice(j, j + 3))![0];
        text += String.fromCharCode(Number.parseInt(oct, 8) & 0xff);
        j += oct.length - 1;
      } else if (e === "c" && j + 1 < s.length) {
        text += String.fromCharCode(s.charCodeAt(++j) & 0x1f);
      } else text += `\\${e ?? ""}`;
    }
    if (j >= s.length) throw new ParseError("unbalanced $'…' quote");
    this.i = j + 1;
    return text;
  }
}

function closingDoubleQuote(s: string, open: number): number {
  for (let j = open + 1; j < s.length; j++) {
    if (s[j] === "\\") j++;
    else if (s[j] === '"') return j;
  }
  return -1;
}

interface Word {
  text: string;
  dynamic: boolean;
  quoted: boolean;
  glob: boolean;
}

function emptyCommand(): SimpleCommand {
  return { words: [], dynamic: [], quoted: [], glob: [], redirects: [] };
}
