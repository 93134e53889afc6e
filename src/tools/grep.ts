/**
 * `grep`: lines matching a JS regex (or a literal) across a folder. Each file is
 * read as bytes, skipped when binary, and searched with one global regex over
 * its text so the engine does the scanning; only matching lines become strings.
 */
import { basename } from "node:path";
import { z } from "zod";
import { defineTool } from "./define.ts";
import { MAX_FILE_BYTES, type PatternSpec } from "./grep-file.ts";
import { OrderedFileSearch } from "./grep-parallel.ts";
import { GREP_MAX_LINE_CHARS, MAX_BYTES, cutLine, formatBytes } from "./limits.ts";
import { resolvePath, statPath } from "./paths.ts";
import { ToolError } from "./types.ts";
import { walkTree } from "./walk.ts";

const DEFAULT_LIMIT = 100;

const schema = () =>
  z.object({
    pattern: z.string().min(1).describe("JavaScript regular expression (or plain text with literal: true)"),
    path: z.string().optional().describe("File or folder to search (default: the cwd)"),
    glob: z.string().optional().describe("Only search files matching this glob, e.g. '*.ts' or 'src/**/*.tsx'"),
    ignoreCase: z.boolean().optional().describe("Case-insensitive match"),
    literal: z.boolean().optional().describe("Treat pattern as plain text, not a regex"),
    context: z.number().int().min(0).max(20).optional().describe("Lines of context around each match"),
    limit: z.number().int().min(1).optional().describe(`Maximum number of matching lines (default ${DEFAULT_LIMIT})`),
  });

export const grepTool = defineTool({
  name: "grep",
  mutating: false,
  description:
    "Search file contents for a regex (JavaScript syntax) or literal text. Honours .gitignore and .ignore files, " +
    "skips binary files, .git and node_modules. Output lines are 'path:line: text' (context lines use '-').",
  schema,
  async run(args, ctx) {
    const spec = compile(args.pattern, args.literal ?? false, args.ignoreCase ?? false);
    const shown = args.path ?? ".";
    const root = resolvePath(ctx.cwd, shown);
    const info = await statPath("grep", shown, root);
    const search = new Search(new RegExp(spec.source, spec.flags), args.context ?? 0, args.limit ?? DEFAULT_LIMIT);

    const glob = args.glob ? new Bun.Glob(args.glob) : undefined;
    const globByPath = args.glob?.includes("/") ?? false;
    const files = new OrderedFileSearch(spec, (rel, found) => search.found(rel, found));
    try {
      if (info.isFile()) files.add(root, basename(root));
      else {
        await walkTree(root, { cwd: ctx.cwd, signal: ctx.signal }, (entry) => {
          if (entry.isDir) return false;
          if (glob && !glob.match(globByPath ? entry.rel : entry.name)) return false;
          return files.add(entry.abs, entry.rel);
        });
      }
      await files.finish();
    } finally {
      files.close();
    }
    return search.result(args.pattern);
  },
});

function compile(pattern: string, literal: boolean, ignoreCase: boolean): PatternSpec {
  const source = literal ? pattern.replace(/[.*+?^${}()|[\]\\]/g, "\\$&") : pattern;
  const flags = ignoreCase ? "gmi" : "gm";
  try {
    new RegExp(source, flags);
    // looked for in the raw bytes first, unless CRLF → LF or the decoding of bad bytes (U+FFFD) could make it match
    return { source, flags, literal: literal && !ignoreCase && !/[\r\n\uFFFD]/.test(pattern) ? pattern : undefined };
  } catch (err) {
    throw new ToolError(`grep: pattern is not a valid JavaScript regex: ${(err as Error).message}; use literal: true for plain text`);
  }
}

/** Collects output lines across files until the match limit or the byte cap. */
class Search {
  private readonly out: string[] = [];
  private bytes = 0;
  private matches = 0;
  private files = 0;
  private cut: "limit" | "bytes" | undefined;
  private readonly skipped: string[] = [];

  constructor(
    private readonly regex: RegExp,
    private readonly context: number,
    private readonly limit: number,
  ) {}

  /** A file's text (or its size, when it is too big to search); returns true once the search is full. */
  found(rel: string, file: { text?: string; tooBig?: number }): boolean {
    if (file.tooBig !== undefined) {
      this.skipped.push(`${rel} (${formatBytes(file.tooBig)})`);
      return false;
    }
    const text = file.text ?? "";
    const hits = this.matchingLines(text);
    if (hits.length > 0) {
      this.files++;
      this.emit(text, rel, hits);
    }
    return this.cut !== undefined;
  }

  /** Start offsets and numbers of matching lines, at most what the limit still allows. */
  private matchingLines(text: string): { start: number; line: number }[] {
    const hits: { start: number; line: number }[] = [];
    const re = this.regex;
    re.lastIndex = 0;
    let line = 1;
    let counted = 0;
    let atEnd = false;
    while (this.matches + hits.length < this.limit) {
      const m = re.exec(text);
      if (!m) {
        atEnd = true;
        break;
      }
      const start = m.index === 0 ? 0 : text.lastIndexOf("\n", m.index - 1) + 1;
      for (let i = text.indexOf("\n", counted); i !== -1 && i < start; i = text.indexOf("\n", i + 1)) line++;
      counted = start;
      hits.push({ start, line });
      const end = text.indexOf("\n", m.index);
      if (end === -1) {
        atEnd = true;
        break;
      }
      re.lastIndex = end + 1;
    }
    if (!atEnd && re.exec(text)) this.cut = "limit";
    return hits;
  }

  private emit(text: string, rel: string, hits: { start: number; line: number }[]): void {
    let lastPrinted = 0;
    if (this.out.length > 0 && this.context > 0) this.push("--");
    for (let h = 0; h < hits.length; h++) {
      const { start, line } = hits[h]!;
      const from = Math.max(1, line - this.context, lastPrinted + 1);
      if (this.context > 0 && lastPrinted > 0 && from > lastPrinted + 1) this.push("--");
      let pos = start;
      for (let k = line; k > from; k--) pos = pos <= 1 ? 0 : text.lastIndexOf("\n", pos - 2) + 1;
      for (let n = from; n < line; n++, pos = nextLine(text, pos)) this.push(`${rel}-${n}- ${lineAt(text, pos)}`);
      if (!this.push(`${rel}:${line}: ${lineAt(text, start)}`)) return;
      this.matches++;
      const nextHit = h + 1 < hits.length ? hits[h + 1]!.line : Infinity;
      const to = Math.min(line + this.context, nextHit - 1);
      pos = nextLine(text, start);
      let n = line + 1;
      for (; n <= to && pos < text.length; n++, pos = nextLine(text, pos)) this.push(`${rel}-${n}- ${lineAt(text, pos)}`);
      lastPrinted = n - 1;
    }
  }

  private push(line: string): boolean {
    if (this.cut === "bytes") return false;
    if (this.bytes + line.length + 1 > MAX_BYTES) {
      this.cut = "bytes";
      return false;
    }
    this.out.push(line);
    this.bytes += line.length + 1;
    return true;
  }

  result(pattern: string) {
    const notes: string[] = [];
    if (this.cut === "limit") notes.push(`[Stopped at ${this.limit} matches; use limit=${this.limit * 2}, a narrower pattern, path or glob for more.]`);
    if (this.cut === "bytes") notes.push(`[Stopped at ${MAX_BYTES / 1024} KB of output; use a narrower pattern, path or glob.]`);
    if (this.skipped.length > 0) {
      notes.push(`[Not searched, over ${formatBytes(MAX_FILE_BYTES)}: ${this.skipped.slice(0, 5).join(", ")}${this.skipped.length > 5 ? ", …" : ""}]`);
    }
    const body = this.matches === 0 ? `No matches for ${pattern}` : this.out.join("\n");
    return {
      content: [{ type: "text" as const, text: [body, ...notes].join("\n\n") }],
      details: { matches: this.matches, files: this.files, truncated: this.cut !== undefined },
    };
  }
}

function nextLine(text: string, pos: number): number {
  const nl = text.indexOf("\n", pos);
  return nl === -1 ? text.length : nl + 1;
}

function lineAt(text: string, start: number): string {
  const nl = text.indexOf("\n", start);
  return cutLine(text.slice(start, nl === -1 ? text.length : nl), GREP_MAX_LINE_CHARS);
}
