/**
 * The `scripted` provider: answers from a script instead of a network, behind
 * the same `Provider` seam as the real wire formats, so its replies go through
 * the same assembly, events and tool loop. Loaded only when a scripted model
 * is used (see registry.ts).
 *
 * Where a reply stands is read from the conversation itself, never kept here:
 * the last user message picks a rule, each assistant message after it used one
 * part of that rule's reply, and when the reply is used up the last tool result
 * picks the next rule. A resumed or replayed session therefore gets the same
 * answers. Two things are remembered: an error step already sent at a point
 * of the conversation, so that the automatic retry goes on after it, and the
 * last prompt sent under each cache key, for the cache reads usage reports.
 */
import { fileURLToPath } from "node:url";
import type { AgentMessage } from "../core/messages.ts";
import { classifyError } from "./errors.ts";
import { parseScript, ScriptError, type Rule, type Step } from "./script-format.ts";
import { fillArguments, fillTemplate, messageText, TemplateError } from "./script-template.ts";
import type { Provider, ProviderEvent, ProviderRequest } from "./types.ts";
import demo from "./scripts/demo.yml" with { type: "text" };

/** The scripts inside nova, selected as `scripted/<name>`. */
const BUILTIN: Record<string, string> = { demo };

export const BUILTIN_PREFIX = "builtin:";

/** error steps already sent, by point of the conversation: a retry resumes after them */
const resumeAt = new Map<string, number>();

export const scripted: Provider = {
  api: "scripted",
  async *stream(request, signal) {
    let steps: Step[];
    let key: string;
    try {
      const rules = await loadScript(request.model.baseUrl);
      steps = nextMessage(rules, request.messages);
      const last = request.messages.at(-1);
      key = `${request.model.baseUrl}\0${request.messages.length}\0${last?.timestamp ?? 0}`;
    } catch (error) {
      if (!(error instanceof ScriptError) && !(error instanceof TemplateError)) throw error;
      yield { type: "error", error: { message: error.message, retryable: false } };
      return;
    }
    yield* play(steps, resumeAt.get(key) ?? 0, request, signal, (next) => resumeAt.set(key, next));
  },
};

async function loadScript(location: string): Promise<Rule[]> {
  if (location.startsWith(BUILTIN_PREFIX)) {
    const name = location.slice(BUILTIN_PREFIX.length);
    const text = BUILTIN[name];
    if (text === undefined) throw new ScriptError(`no built-in script "${name}" (built in: ${Object.keys(BUILTIN).join(", ")})`);
    return parseScript(text, `built-in script ${name}`);
  }
  const path = location.startsWith("file:") ? fileURLToPath(location) : location;
  const file = Bun.file(path);
  if (!(await file.exists())) throw new ScriptError(`script ${path} not found`);
  return parseScript(await file.text(), path);
}

/** The steps of the assistant message this request asks for. */
export function nextMessage(rules: Rule[], messages: readonly AgentMessage[]): Step[] {
  const start = messages.findLastIndex((m) => m.role === "user");
  if (start < 0) throw new ScriptError("the conversation has no user message to answer");
  let rule = pick(rules, messages[start]!);
  let used = 0;
  for (let i = start + 1; i < messages.length; i++) {
    if (messages[i]!.role !== "assistant") continue;
    used++;
    if (used < rule.messages.length) continue;
    // this reply is used up: the last tool result of that message picks the next rule
    let result: AgentMessage | undefined;
    for (let j = i + 1; j < messages.length && messages[j]!.role !== "assistant"; j++) if (messages[j]!.role === "toolResult") result = messages[j];
    if (!result) throw new ScriptError("the reply is used up and no tool result follows it");
    rule = pick(rules, result);
    used = 0;
  }
  return rule.messages[used]!;
}

function pick(rules: Rule[], message: AgentMessage): Rule {
  const text = messageText(message);
  const rule = rules.find((r) => !r.match || r.match.test(text));
  if (rule) return rule;
  const what = message.role === "user" ? "the last user message" : `the last tool result (${message.role === "toolResult" ? message.toolName : ""})`;
  throw new ScriptError(`no rule of the script matches ${what}: ${JSON.stringify(text.length > 200 ? `${text.slice(0, 200)}…` : text)}`);
}

async function* play(steps: Step[], from: number, request: ProviderRequest, signal: AbortSignal, errorSent: (next: number) => void): AsyncGenerator<ProviderEvent> {
  const { messages } = request;
  const aborted = { type: "error", error: { message: "Request was aborted", retryable: false } } as const;
  let index = 0;
  let output = 0;
  let usage: ProviderEvent | undefined;
  let tools = false;
  for (let n = from; n < steps.length; n++) {
    if (signal.aborted) return yield aborted;
    const step = steps[n]!;
    if ("text" in step || "thinking" in step) {
      const text = fillTemplate("text" in step ? step.text : step.thinking, messages);
      const type = "text" in step ? "text_delta" : "thinking_delta";
      if (text === "") continue;
      for (const delta of deltas(text)) yield { type, index, delta };
      output += text.length;
      index++;
    } else if ("tool" in step) {
      const args = JSON.stringify(fillArguments(step.arguments, messages));
      yield { type: "toolcall_start", index, id: `scripted_${messages.length}_${index}`, name: step.tool };
      const half = Math.ceil(args.length / 2);
      yield { type: "toolcall_delta", index, delta: args.slice(0, half) };
      yield { type: "toolcall_delta", index, delta: args.slice(half) };
      output += args.length;
      index++;
      tools = true;
    } else if ("error" in step) {
      errorSent(n + 1);
      return yield { type: "error", error: classifyError(step.error.message, "", step.error.status) };
    } else if ("delayMs" in step) {
      if (!(await delay(step.delayMs, signal))) return yield aborted;
    } else usage = { type: "usage", usage: step.usage };
  }
  yield usage ?? { type: "usage", usage: { ...estimateInput(request), output: Math.ceil(output / 4) } };
  yield { type: "stop", reason: tools ? "toolUse" : "stop" };
}

/** Word by word, as a model streams. */
function deltas(text: string): string[] {
  return text.match(/\s*\S+\s*/g) ?? [text];
}

/** the last prompt sent under each cache key (a few keys at most, as a real cache evicts) */
const cached = new Map<string, string>();
const CACHED_KEYS = 16;
/** OpenAI's automatic prompt cache: nothing below 1024 tokens, then whole blocks of 128 */
const CACHE_MIN_TOKENS = 1024;
const CACHE_BLOCK_TOKENS = 128;

/**
 * Without a usage step: an estimate (4 characters a token), reported the way
 * OpenAI reports its prompt cache. With a cache key (the session id), the
 * part of this prompt that begins the same as the last one sent under that
 * key is read from the cache, so a request whose start changed (a new system
 * prompt, a compaction) reads none.
 */
function estimateInput(request: ProviderRequest): { input: number; cacheRead: number } {
  const prompt = request.systemPrompt + JSON.stringify(request.tools) + request.messages.map((m) => JSON.stringify(m)).join("");
  const total = Math.ceil(prompt.length / 4);
  if (!request.cacheKey) return { input: total, cacheRead: 0 };
  const previous = cached.get(request.cacheKey);
  cached.delete(request.cacheKey);
  cached.set(request.cacheKey, prompt);
  if (cached.size > CACHED_KEYS) cached.delete(cached.keys().next().value!);
  const same = previous === undefined ? 0 : Math.floor(commonPrefix(previous, prompt) / 4);
  const cacheRead = same < CACHE_MIN_TOKENS ? 0 : Math.floor(same / CACHE_BLOCK_TOKENS) * CACHE_BLOCK_TOKENS;
  return { input: total - cacheRead, cacheRead };
}

function commonPrefix(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  let i = 0;
  while (i < n && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  return i;
}

function delay(ms: number, signal: AbortSignal): Promise<boolean> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => (signal.removeEventListener("abort", onAbort), resolve(true)), ms);
    const onAbort = () => (clearTimeout(timer), resolve(false));
    signal.addEventListener("abort", onAbort, { once: true });
  });
}
