/**
 * MCP prompts as slash commands: `/mcp__<server>__<prompt> args` is expanded
 * through `prompts/get` into the text (and images) of the user's message.
 */
import type { ImageContent } from "../core/messages.ts";
import { toBlock, type McpBlock } from "./results.ts";
import type { RemotePrompt } from "./server.ts";

export interface PromptCommand {
  name: string;
  description: string;
  arguments: { name: string; description?: string; required: boolean }[];
}

export function promptCommand(name: string, prompt: RemotePrompt): PromptCommand {
  return {
    name,
    description: prompt.description ?? prompt.title ?? `MCP prompt ${prompt.name}`,
    arguments: (prompt.arguments ?? []).map((a) => ({ name: a.name, description: a.description, required: a.required === true })),
  };
}

/** The command name and the rest of a message that starts with `/`, or undefined. */
export function slashCommand(text: string): { name: string; rest: string } | undefined {
  const match = /^\/(\S+)(?:\s+([\s\S]*))?$/.exec(text.trim());
  return match ? { name: match[1]!, rest: (match[2] ?? "").trim() } : undefined;
}

/**
 * Arguments from the text after the command: `name=value` pairs for the
 * prompt's declared arguments, other words filling the declared arguments in
 * order (double quotes keep spaces); a prompt with one argument takes the
 * whole text.
 */
export function promptArguments(prompt: RemotePrompt, rest: string): Record<string, string> {
  const declared = (prompt.arguments ?? []).map((a) => a.name);
  if (declared.length === 0 || rest === "") return {};
  if (declared.length === 1 && !rest.startsWith(`${declared[0]}=`)) return { [declared[0]!]: rest };
  const args: Record<string, string> = {};
  const positional: string[] = [];
  for (const word of words(rest)) {
    const eq = word.indexOf("=");
    const key = eq > 0 ? word.slice(0, eq) : "";
    if (declared.includes(key)) args[key] = word.slice(eq + 1);
    else positional.push(word);
  }
  for (const name of declared) {
    if (!(name in args) && positional.length > 0) args[name] = positional.shift()!;
  }
  if (positional.length > 0) {
    const last = declared.at(-1)!;
    args[last] = [args[last], ...positional].filter((v) => v !== undefined).join(" ");
  }
  return args;
}

/** A prompt's messages flattened into one user message: their text joined, images kept. */
export function promptMessage(messages: { role: string; content: McpBlock }[]): { text: string; images: ImageContent[] } {
  const texts: string[] = [];
  const images: ImageContent[] = [];
  for (const message of messages) {
    const block = toBlock(message.content);
    if (block.type === "image") images.push(block);
    else texts.push(block.text);
  }
  return { text: texts.join("\n\n"), images };
}

function words(text: string): string[] {
  const out: string[] = [];
  for (const match of text.matchAll(/(?:([^\s="]+)=)?"([^"]*)"|(\S+)/g)) out.push(match[2] !== undefined ? `${match[1] ? `${match[1]}=` : ""}${match[2]}` : match[3]!);
  return out;
}
