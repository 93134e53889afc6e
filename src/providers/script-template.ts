/**
 * The placeholders of a script's `text`, `thinking` and tool `arguments`:
 * `{{ result.ls | match /^readme.*$/im ?? "none" }}` is filled from what the
 * conversation already holds (the prompt, tool results, tool arguments), so a
 * script can answer from what the real tools returned. Pure: it sees messages,
 * never the disk.
 *
 *   expression := chain ("??" chain)*        first chain whose value is not empty
 *   chain      := source ("|" filter)*
 *   source     := prompt | result | result.TOOL | args.TOOL.FIELD | "literal"
 *   filter     := match /REGEX/flags    the first match (its first group, if it has one)
 *               | lines /REGEX/flags    only the lines that match
 *               | count                 how many non-empty lines
 *               | head N                the first N non-empty lines, joined with ", "
 */
import type { AgentMessage, ToolCall } from "../core/messages.ts";
import { blockText } from "../core/text.ts";

export class TemplateError extends Error {}

type Token = { kind: "word" | "string" | "regex" | "number" | "pipe" | "or"; text: string; flags?: string };

const PLACEHOLDER = /\{\{([\s\S]*?)\}\}/g;

/** Checks every placeholder of a text without filling it, so a bad script fails when it is read. */
export function checkTemplate(text: string): void {
  for (const [, expression] of text.matchAll(PLACEHOLDER)) parse(expression!);
}

export function fillTemplate(text: string, messages: readonly AgentMessage[]): string {
  if (!text.includes("{{")) return text;
  return text.replace(PLACEHOLDER, (_, expression: string) => evaluate(parse(expression), messages));
}

/** Deep copy of a tool's arguments with every string filled. */
export function fillArguments(value: unknown, messages: readonly AgentMessage[]): unknown {
  if (typeof value === "string") return fillTemplate(value, messages);
  if (Array.isArray(value)) return value.map((item) => fillArguments(item, messages));
  if (value && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, fillArguments(item, messages)]));
  }
  return value;
}

export function checkArguments(value: unknown): void {
  if (typeof value === "string") checkTemplate(value);
  else if (value && typeof value === "object") for (const item of Object.values(value)) checkArguments(item);
}

// ----- parsing -----

type Filter = { name: "match" | "lines"; regex: RegExp } | { name: "count" } | { name: "head"; n: number };
interface Chain {
  source: Token;
  filters: Filter[];
}

function parse(expression: string): Chain[] {
  const tokens = tokenize(expression);
  const chains: Chain[] = [];
  let i = 0;
  const next = () => tokens[i++];
  for (;;) {
    const source = next();
    if (!source || (source.kind !== "word" && source.kind !== "string")) fail(expression, 'expected a source (prompt, result, result.TOOL, args.TOOL.FIELD or "text")');
    if (source.kind === "word") checkSource(expression, source.text);
    const filters: Filter[] = [];
    while (tokens[i]?.kind === "pipe") {
      i++;
      const name = next();
      if (name?.kind !== "word") fail(expression, "expected a filter after '|' (match, lines, count, head)");
      if (name.text === "match" || name.text === "lines") {
        const regex = next();
        if (regex?.kind !== "regex") fail(expression, `${name.text} needs a /regex/`);
        try {
          filters.push({ name: name.text, regex: new RegExp(regex.text, (regex.flags ?? "").replace("g", "")) });
        } catch (error) {
          fail(expression, `bad regex /${regex.text}/: ${(error as Error).message}`);
        }
      } else if (name.text === "count") filters.push({ name: "count" });
      else if (name.text === "head") {
        const n = next();
        if (n?.kind !== "number") fail(expression, "head needs a number of lines");
        filters.push({ name: "head", n: Number(n.text) });
      } else fail(expression, `unknown filter "${name.text}" (match, lines, count, head)`);
    }
    chains.push({ source, filters });
    if (i === tokens.length) return chains;
    if (next()?.kind !== "or") fail(expression, `unexpected "${tokens[i - 1]!.text}"`);
  }
}

function checkSource(expression: string, source: string): void {
  if (source === "prompt" || source === "result" || /^result\.[\w-]+$/.test(source) || /^args\.[\w-]+\.[\w-]+$/.test(source)) return;
  fail(expression, `unknown source "${source}" (prompt, result, result.TOOL, args.TOOL.FIELD)`);
}

function tokenize(expression: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < expression.length) {
    const c = expression[i]!;
    if (/\s/.test(c)) i++;
    else if (c === "|") tokens.push({ kind: "pipe", text: c }), i++;
    else if (expression.startsWith("??", i)) tokens.push({ kind: "or", text: "??" }), (i += 2);
    else if (c === '"' || c === "/") {
      let j = i + 1;
      let text = "";
      // a regex's '/' inside [...] does not end it, as in a JS regex literal
      let inClass = false;
      while (j < expression.length && (expression[j] !== c || inClass)) {
        // in a string \" is a quote; in a regex every escape stays for RegExp to read
        if (expression[j] === "\\" && j + 1 < expression.length) {
          text += c === '"' && expression[j + 1] === '"' ? '"' : expression.slice(j, j + 2);
          j += 2;
          continue;
        }
        if (c === "/" && expression[j] === "[") inClass = true;
        else if (c === "/" && expression[j] === "]") inClass = false;
        text += expression[j++];
      }
      if (j >= expression.length) fail(expression, `unterminated ${c === '"' ? "string" : "regex"}`);
      j++;
      if (c === '"') tokens.push({ kind: "string", text });
      else {
        const flags = /^[dgimsuvy]*/.exec(expression.slice(j))![0];
        tokens.push({ kind: "regex", text, flags });
        j += flags.length;
      }
      i = j;
    } else {
      const word = /^[\w.-]+/.exec(expression.slice(i))?.[0];
      if (!word) fail(expression, `unexpected "${c}"`);
      tokens.push({ kind: /^\d+$/.test(word) ? "number" : "word", text: word });
      i += word.length;
    }
  }
  return tokens;
}

function fail(expression: string, reason: string): never {
  throw new TemplateError(`placeholder {{${expression}}}: ${reason}`);
}

// ----- evaluation -----

function evaluate(chains: Chain[], messages: readonly AgentMessage[]): string {
  for (const chain of chains) {
    let value = chain.source.kind === "string" ? chain.source.text : lookup(chain.source.text, messages);
    for (const filter of chain.filters) value = apply(filter, value);
    if (value !== "") return value;
  }
  return "";
}

function apply(filter: Filter, value: string): string {
  if (filter.name === "count") return String(nonEmptyLines(value).length);
  if (filter.name === "head") return nonEmptyLines(value).slice(0, filter.n).join(", ");
  if (filter.name === "lines")
    return nonEmptyLines(value)
      .filter((line) => filter.regex.test(line))
      .join("\n");
  const found = filter.regex.exec(value);
  return found ? (found[1] ?? found[0]) : "";
}

function nonEmptyLines(text: string): string[] {
  return text.split("\n").filter((line) => line.trim() !== "");
}

function lookup(source: string, messages: readonly AgentMessage[]): string {
  const [head, tool, field] = source.split(".");
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i]!;
    if (head === "prompt" && m.role === "user") return messageText(m);
    if (head === "result" && m.role === "toolResult" && (tool === undefined || m.toolName === tool)) return messageText(m);
    if (head === "args" && m.role === "assistant") {
      const call = m.content.findLast((c: (typeof m.content)[number]): c is ToolCall => c.type === "toolCall" && c.name === tool);
      if (call) return stringify(call.arguments[field!]);
    }
  }
  return "";
}

function stringify(value: unknown): string {
  if (value === undefined || value === null) return "";
  return typeof value === "string" ? value : JSON.stringify(value);
}

/** The text of a user message or tool result, the part rules and placeholders read. */
export function messageText(message: AgentMessage): string {
  if (message.role !== "user" && message.role !== "toolResult") return "";
  return blockText(message.content, "\n");
}
