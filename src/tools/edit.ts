/**
 * `edit`: exact-text replacements. Every oldText must match exactly once in the
 * original file; if any does not, nothing is written. Matching happens on LF
 * text without a BOM, and the file is written back in its own style.
 */
import { readFile } from "node:fs/promises";
import { z } from "zod";
import { atomicWrite } from "./atomic-write.ts";
import { defineTool } from "./define.ts";
import { type Replacement, replacementDiff } from "./edit-diff.ts";
import { resolvePath, statPath } from "./paths.ts";
import { applyStyle, splitStyle, toLF } from "./text-style.ts";
import { ToolError } from "./types.ts";

const pair = () =>
  z.object({
    oldText: z.string().describe("Exact text to find; must occur exactly once in the file"),
    newText: z.string().describe("Text to put in its place"),
  });

const schema = () =>
  z.object({
    path: z.string().describe("Path to the file to edit (relative to the cwd or absolute)"),
    oldText: z.string().optional().describe("Exact text to find (single edit)"),
    newText: z.string().optional().describe("Replacement text (single edit)"),
    edits: z.array(pair()).optional().describe("Several replacements, each matched against the original file"),
  });

export const editTool = defineTool({
  name: "edit",
  mutating: true,
  description:
    "Edit a file by replacing exact text. Give oldText/newText, or edits: [{oldText, newText}] for several changes at once. " +
    "Each oldText must match exactly once (whitespace included); if any does not, no change is made.",
  schema,
  async run(args, ctx) {
    if (ctx.host?.uris?.schemeOf(args.path)) {
      throw new ToolError(`edit: ${args.path} is served by the host and cannot be edited in place; read it, then use write with the whole new content`);
    }
    const edits = collectEdits(args);
    const path = resolvePath(ctx.cwd, args.path);
    const info = await statPath("edit", args.path, path);
    if (!info.isFile()) throw new ToolError(`edit: ${args.path} is not a regular file`);
    const { style, text } = splitStyle(ctx.fs ? await ctx.fs.readTextFile(path) : await readFile(path, "utf8"));

    const replacements = locate(text, edits, args.path);
    const parts: string[] = [];
    let pos = 0;
    for (const r of replacements) {
      parts.push(text.slice(pos, r.start), r.text);
      pos = r.end;
    }
    parts.push(text.slice(pos));
    const updated = parts.join("");
    if (updated === text) throw new ToolError(`edit: no change: newText equals oldText in ${args.path}`);

    ctx.signal.throwIfAborted();
    if (ctx.fs) await ctx.fs.writeTextFile(path, applyStyle(updated, style));
    else await atomicWrite(path, applyStyle(updated, style));
    const { diff, firstChangedLine } = replacementDiff(args.path, text, replacements);
    const count = replacements.length;
    return {
      content: [{ type: "text", text: `Edited ${args.path}: ${count} replacement${count === 1 ? "" : "s"}` }],
      details: { diff, firstChangedLine },
    };
  },
});

type Pair = z.infer<ReturnType<typeof pair>>;

/** What an edit call would change, without writing: the replacements in the file's LF text, or a ToolError. */
export function plannedEdit(args: Record<string, unknown>, text: string, shown: string): Replacement[] {
  return locate(splitStyle(text).text, collectEdits(schema().parse(args)), shown);
}

export function collectEdits(args: z.infer<ReturnType<typeof schema>>): Pair[] {
  const single = args.oldText !== undefined || args.newText !== undefined;
  if (single && args.edits) throw new ToolError("edit: give either oldText/newText or edits, not both");
  if (single) {
    if (args.oldText === undefined) throw new ToolError("edit: oldText is missing");
    if (args.newText === undefined) throw new ToolError("edit: newText is missing");
    return [{ oldText: args.oldText, newText: args.newText }];
  }
  if (!args.edits || args.edits.length === 0) throw new ToolError("edit: give oldText and newText, or a non-empty edits array");
  return args.edits;
}

/** Where each edit applies in the original text, sorted; fails listing every edit that does not match exactly once. */
export function locate(text: string, edits: Pair[], shown: string): Replacement[] {
  const problems: string[] = [];
  const found: Replacement[] = [];
  edits.forEach((edit, i) => {
    const name = edits.length === 1 ? "oldText" : `edits[${i}].oldText`;
    const needle = toLF(edit.oldText);
    if (needle.length === 0) {
      problems.push(`${name} is empty`);
      return;
    }
    const first = text.indexOf(needle);
    if (first === -1) {
      problems.push(`${name} matched 0 times in ${shown}; it must match the file exactly, whitespace included`);
      return;
    }
    const matches = countMatches(text, needle, first);
    if (matches > 1) {
      problems.push(`${name} matched ${matches} times in ${shown}; add surrounding lines so it matches exactly once`);
      return;
    }
    found.push({ start: first, end: first + needle.length, text: toLF(edit.newText) });
  });
  if (problems.length > 0) throw new ToolError(`edit: no change made: ${problems.join("; ")}`);
  found.sort((a, b) => a.start - b.start);
  for (let i = 1; i < found.length; i++) {
    if (found[i]!.start < found[i - 1]!.end) {
      throw new ToolError(`edit: no change made: two edits overlap in ${shown}; merge them into one`);
    }
  }
  return found;
}

function countMatches(text: string, needle: string, first: number): number {
  let count = 0;
  for (let at = first; at !== -1; at = text.indexOf(needle, at + needle.length)) count++;
  return count;
}
