/**
 * Compaction: the older part of the conversation is summarised by a model
 * call; recent messages (about `keepRecentTokens`) stay verbatim. The cut
 * never falls between a tool call and its result, so the kept part always
 * starts at a message the provider accepts first.
 */
import type { AgentMessage } from "../core/messages.ts";
import { projectPath, type ContextItem, type SessionEntry } from "../session/index.ts";
import { type Provider, type ProviderRequest, eventsOf } from "../providers/types.ts";
import { estimateMessageTokens, estimateTokens } from "./tokens.ts";

export type { ContextItem };

/** The entries behind the current context, after the newest compaction (whose summary comes first). */
export function contextItems(path: readonly SessionEntry[]): { items: ContextItem[]; previousSummary?: string; previousDetails?: unknown } {
  const { compaction, items } = projectPath(path);
  return { items, previousSummary: compaction?.summary, previousDetails: compaction?.details };
}

/** Pi's compaction `details`: the files read (and not changed) and the files changed. */
export interface FileLists {
  readFiles: string[];
  modifiedFiles: string[];
}

/**
 * The files the summarised messages read and changed, added to those the
 * previous compaction listed, so the lists cover the whole conversation as
 * Pi's do: a file both read and changed counts as changed.
 */
export function fileLists(messages: readonly AgentMessage[], previous: unknown): FileLists {
  const read = new Set<string>();
  const modified = new Set<string>();
  const earlier = (previous ?? {}) as Partial<Record<keyof FileLists, unknown>>;
  const strings = (value: unknown) => (Array.isArray(value) ? value.filter((v): v is string => typeof v === "string") : []);
  for (const path of strings(earlier.readFiles)) read.add(path);
  for (const path of strings(earlier.modifiedFiles)) modified.add(path);
  for (const message of messages) {
    if (message.role !== "assistant") continue;
    for (const block of message.content) {
      const path = block.type === "toolCall" ? block.arguments.path : undefined;
      if (typeof path !== "string" || block.type !== "toolCall") continue;
      if (block.name === "read") read.add(path);
      else if (block.name === "write" || block.name === "edit") modified.add(path);
    }
  }
  return { readFiles: [...read].filter((path) => !modified.has(path)).sort(), modifiedFiles: [...modified].sort() };
}

/** Index of the first item to keep, or undefined when there is nothing older to summarise. */
export function findCut(items: ContextItem[], keepRecentTokens: number): number | undefined {
  let kept = 0;
  let cut = items.length;
  while (cut > 0 && kept < keepRecentTokens) {
    cut--;
    kept += estimateMessageTokens(items[cut]!.message);
  }
  // a tool result stays with the call it answers
  while (cut > 0 && cut < items.length && items[cut]!.message.role === "toolResult") cut--;
  return cut > 0 ? cut : undefined;
}

/**
 * A manual compaction of a conversation shorter than what is kept verbatim
 * (Pi compacts it too): everything before the last exchange is summarised, or
 * the one exchange there is; undefined only for an empty conversation.
 */
export function manualCut(items: ContextItem[]): number | undefined {
  if (items.length === 0) return undefined;
  const lastUser = items.findLastIndex((i) => i.message.role === "user");
  return lastUser > 0 ? lastUser : items.length;
}

const SUMMARY_PROMPT = `You are summarising the earlier part of a coding session so that the work can continue without it.
Write a compact, factual summary: the user's goals and constraints, decisions made, files read or changed (with paths),
commands run and their outcomes, errors met and how they were resolved, and what remains to do. Keep identifiers,
paths and numbers exact. Do not invent anything. Answer with the summary only.`;

/** Asks the model for a summary of `messages`; throws with the provider's error when it fails. */
export async function summarize(
  provider: Provider,
  base: ProviderRequest,
  messages: AgentMessage[],
  previousSummary: string | undefined,
  customInstructions: string | undefined,
  signal: AbortSignal,
): Promise<string> {
  let transcript = previousSummary ? `[Summary of what came before]\n${previousSummary}\n\n` : "";
  transcript += messages.map(render).join("\n\n");
  const ask = customInstructions ? `\n\nAdditional instructions: ${customInstructions}` : "";
  const request: ProviderRequest = {
    ...base,
    systemPrompt: SUMMARY_PROMPT,
    tools: [],
    thinkingLevel: "off",
    messages: [{ role: "user", content: `<conversation>\n${transcript}\n</conversation>\n\nSummarise the conversation above.${ask}`, timestamp: Date.now() }],
  };
  let text = "";
  for await (const item of provider.stream(request, signal)) {
    for (const event of eventsOf(item)) {
      if (event.type === "text_delta") text += event.delta;
      else if (event.type === "error") throw new Error(`Compaction failed: ${event.error.message}`);
    }
  }
  if (signal.aborted) throw new Error("Compaction aborted");
  if (!text.trim()) throw new Error("Compaction failed: the model returned an empty summary");
  return text.trim();
}

const MAX_RENDERED = 4000;

function render(message: AgentMessage): string {
  const cap = (s: string) => (s.length > MAX_RENDERED ? `${s.slice(0, MAX_RENDERED)}… [${estimateTokens(s)} tokens cut]` : s);
  switch (message.role) {
    case "user":
      return `[User]\n${cap(typeof message.content === "string" ? message.content : message.content.map((c) => (c.type === "text" ? c.text : "[image]")).join("\n"))}`;
    case "assistant":
      return `[Assistant]\n${message.content
        .map((c) => (c.type === "text" ? c.text : c.type === "thinking" ? "" : `[tool call ${c.name}] ${cap(JSON.stringify(c.arguments))}`))
        .filter(Boolean)
        .join("\n")}`;
    case "toolResult":
      return `[Tool result: ${message.toolName}${message.isError ? ", error" : ""}]\n${cap(message.content.map((c) => (c.type === "text" ? c.text : "[image]")).join("\n"))}`;
    case "custom":
      return `[Context]\n${cap(typeof message.content === "string" ? message.content : message.content.map((c) => (c.type === "text" ? c.text : "[image]")).join("\n"))}`;
    case "bashExecution":
      return `[User ran: ${message.command}] exit ${message.exitCode ?? "?"}\n${cap(message.output)}`;
    case "compactionSummary":
    case "branchSummary":
      return `[Summary]\n${message.summary}`;
  }
}
