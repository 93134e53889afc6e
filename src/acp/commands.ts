/**
 * Slash commands an ACP editor offers in its prompt box
 * (available_commands_update). A prompt that is one text block starting with
 * `/name` runs the command on the core session instead of going to the model.
 */
import type { ContentBlock } from "./params.ts";

export const availableCommands = [
  {
    name: "compact",
    description: "Summarize the older part of the conversation to free context",
    input: { hint: "optional instructions for the summary" },
  },
];

export function slashCommand(blocks: ContentBlock[]): { name: string; args: string } | undefined {
  const [only] = blocks;
  if (blocks.length !== 1 || only?.type !== "text") return undefined;
  const match = /^\/(\S+)\s*([\s\S]*)$/.exec(only.text.trim());
  if (!match || !availableCommands.some((c) => c.name === match[1])) return undefined;
  return { name: match[1]!, args: match[2]!.trim() };
}
