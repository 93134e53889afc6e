/**
 * A script for the `scripted` provider: a YAML list of rules
 * `{match?, reply: [steps]}`. Checked whole when it is read, so a mistake
 * names its rule, step and field before anything streams.
 */
import { checkArguments, checkTemplate } from "./script-template.ts";

export type Step =
  | { text: string }
  | { thinking: string }
  | { tool: string; arguments: Record<string, unknown> }
  | { error: { status?: number; message: string } }
  | { delayMs: number }
  | { usage: { input: number; output: number; cacheRead?: number; cacheWrite?: number } };

export interface Rule {
  match?: RegExp;
  /**
   * The reply cut into assistant messages: a run of tool steps ends one, and
   * the next message starts after their results came back.
   */
  messages: Step[][];
}

export class ScriptError extends Error {}

const STEP_KINDS = ["text", "thinking", "tool", "error", "delayMs", "usage"] as const;

export function parseScript(text: string, name: string): Rule[] {
  const { parse } = require("yaml") as typeof import("yaml");
  let value: unknown;
  try {
    value = parse(text);
  } catch (error) {
    throw new ScriptError(`${name}: invalid YAML: ${(error as Error).message.split("\n")[0]}`);
  }
  if (!Array.isArray(value) || value.length === 0) throw new ScriptError(`${name}: a script must be a non-empty list of rules {match?, reply: [steps]}`);
  return value.map((rule, i) => parseRule(rule, `${name}: rules[${i}]`));
}

function parseRule(value: unknown, at: string): Rule {
  const rule = object(value, at);
  unknownKeys(rule, ["match", "reply"], at);
  let match: RegExp | undefined;
  if (rule.match !== undefined) {
    if (typeof rule.match !== "string") throw new ScriptError(`${at}.match must be a regular expression string, got ${show(rule.match)}`);
    // `/regex/flags` for flags (`/hello/i`); anything else is the pattern itself
    const literal = /^\/(.*)\/([dimsuv]*)$/s.exec(rule.match);
    try {
      match = literal ? new RegExp(literal[1]!, literal[2]) : new RegExp(rule.match);
    } catch (error) {
      throw new ScriptError(`${at}.match: ${(error as Error).message}`);
    }
  }
  if (!Array.isArray(rule.reply) || rule.reply.length === 0) throw new ScriptError(`${at}.reply must be a non-empty list of steps, got ${show(rule.reply)}`);
  const steps = rule.reply.map((step, j) => parseStep(step, `${at}.reply[${j}]`));
  return { match, messages: splitMessages(steps) };
}

function parseStep(value: unknown, at: string): Step {
  const step = object(value, at);
  const kinds = STEP_KINDS.filter((kind) => kind in step);
  if (kinds.length !== 1) {
    throw new ScriptError(
      `${at} must have exactly one of ${STEP_KINDS.join(", ")}; it has ${kinds.length ? kinds.join(" and ") : `only ${Object.keys(step).join(", ") || "nothing"}`}`,
    );
  }
  const kind = kinds[0]!;
  const field = `${at}.${kind}`;
  switch (kind) {
    case "text":
    case "thinking": {
      unknownKeys(step, [kind], at);
      const text = step[kind];
      if (typeof text !== "string") throw new ScriptError(`${field} must be a string, got ${show(text)}`);
      template(() => checkTemplate(text), field);
      return kind === "text" ? { text } : { thinking: text };
    }
    case "tool": {
      unknownKeys(step, ["tool", "arguments"], at);
      if (typeof step.tool !== "string" || step.tool === "") throw new ScriptError(`${field} must be a tool name, got ${show(step.tool)}`);
      const args = step.arguments === undefined ? {} : object(step.arguments, `${at}.arguments`);
      template(() => checkArguments(args), `${at}.arguments`);
      return { tool: step.tool, arguments: args };
    }
    case "error": {
      unknownKeys(step, ["error"], at);
      const error = object(step.error, field);
      unknownKeys(error, ["status", "message"], field);
      if (typeof error.message !== "string") throw new ScriptError(`${field}.message must be a string, got ${show(error.message)}`);
      if (error.status !== undefined && !(Number.isInteger(error.status) && (error.status as number) >= 100 && (error.status as number) <= 599)) {
        throw new ScriptError(`${field}.status must be an HTTP status (100-599), got ${show(error.status)}`);
      }
      return { error: { status: error.status as number | undefined, message: error.message } };
    }
    case "delayMs": {
      unknownKeys(step, ["delayMs"], at);
      if (!Number.isInteger(step.delayMs) || (step.delayMs as number) < 0) throw new ScriptError(`${field} must be a whole number of milliseconds >= 0, got ${show(step.delayMs)}`);
      return { delayMs: step.delayMs as number };
    }
    case "usage": {
      unknownKeys(step, ["usage"], at);
      const usage = object(step.usage, field);
      unknownKeys(usage, ["input", "output", "cacheRead", "cacheWrite"], field);
      for (const key of ["input", "output", "cacheRead", "cacheWrite"]) {
        const n = usage[key];
        if ((key === "input" || key === "output" || n !== undefined) && !(Number.isInteger(n) && (n as number) >= 0)) {
          throw new ScriptError(`${field}.${key} must be a whole number of tokens >= 0, got ${show(n)}`);
        }
      }
      return { usage: usage as { input: number; output: number; cacheRead?: number; cacheWrite?: number } };
    }
  }
}

/** A non-tool step after a tool step begins the next assistant message. */
function splitMessages(steps: Step[]): Step[][] {
  const messages: Step[][] = [[]];
  for (const step of steps) {
    const current = messages.at(-1)!;
    const afterTools = current.length > 0 && "tool" in current.at(-1)!;
    if (afterTools && !("tool" in step)) messages.push([step]);
    else current.push(step);
  }
  return messages;
}

function template(check: () => void, at: string): void {
  try {
    check();
  } catch (error) {
    throw new ScriptError(`${at}: ${(error as Error).message}`);
  }
}

function object(value: unknown, at: string): Record<string, unknown> {
  if (!value || typeof value !== "object" || Array.isArray(value)) throw new ScriptError(`${at} must be a mapping, got ${show(value)}`);
  return value as Record<string, unknown>;
}

function unknownKeys(value: Record<string, unknown>, known: string[], at: string): void {
  const extra = Object.keys(value).find((key) => !known.includes(key));
  if (extra) throw new ScriptError(`${at}: unknown key "${extra}" (expected ${known.join(", ")})`);
}

function show(value: unknown): string {
  return value === undefined ? "nothing" : JSON.stringify(value);
}
