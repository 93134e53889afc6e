/** `find`: files and folders whose name (or path, when the pattern has a `/`) matches a glob. */
import { z } from "zod";
import { defineTool } from "./define.ts";
import { MAX_BYTES } from "./limits.ts";
import { resolvePath, statPath } from "./paths.ts";
import { ToolError } from "./types.ts";
import { walkTree } from "./walk.ts";

const DEFAULT_LIMIT = 1000;

const schema = () =>
  z.object({
    pattern: z.string().min(1).describe("Glob, e.g. '*.ts', 'src/**/*.test.ts'; without a '/' it matches file names at any depth"),
    path: z.string().optional().describe("Folder to search (default: the cwd)"),
    limit: z.number().int().min(1).optional().describe(`Maximum number of results (default ${DEFAULT_LIMIT})`),
  });

export const findTool = defineTool({
  name: "find",
  mutating: false,
  description:
    "Find files by glob pattern. Honours .gitignore and .ignore files and skips .git and node_modules. " + "Paths are relative to the searched folder; folders end with '/'.",
  schema,
  async run(args, ctx) {
    const shown = args.path ?? ".";
    const root = resolvePath(ctx.cwd, shown);
    if (!(await statPath("find", shown, root)).isDirectory()) throw new ToolError(`find: ${shown} is not a folder`);
    const limit = args.limit ?? DEFAULT_LIMIT;
    const glob = new Bun.Glob(args.pattern);
    const byPath = args.pattern.includes("/");
    const found: string[] = [];
    let bytes = 0;
    let cut: "limit" | "bytes" | undefined;
    await walkTree(root, { cwd: ctx.cwd, signal: ctx.signal }, (entry) => {
      if (!glob.match(byPath ? entry.rel : entry.name)) return false;
      const line = entry.isDir ? `${entry.rel}/` : entry.rel;
      if (found.length >= limit) cut = "limit";
      else if (bytes + line.length + 1 > MAX_BYTES) cut = "bytes";
      if (cut) return true;
      found.push(line);
      bytes += line.length + 1;
      return false;
    });
    // The walk lists a folder's own entries before descending; sorted paths read like a tree.
    found.sort();
    if (found.length === 0) return { content: [{ type: "text", text: `No files match ${args.pattern} in ${shown}` }] };
    const note =
      cut === "limit"
        ? `\n\n[Stopped at ${limit} results; use limit=${limit * 2} or a narrower pattern or path for more.]`
        : cut === "bytes"
          ? `\n\n[Stopped at ${MAX_BYTES / 1024} KB of results; use a narrower pattern or path.]`
          : "";
    return { content: [{ type: "text", text: found.join("\n") + note }], details: { count: found.length, truncated: cut !== undefined } };
  },
});
