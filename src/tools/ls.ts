/** `ls`: one folder's entries, folders marked with a trailing '/'. */
import { readdir, stat } from "node:fs/promises";
import { join } from "node:path";
import { z } from "zod";
import { defineTool } from "./define.ts";
import { resolvePath, statPath } from "./paths.ts";
import { ToolError } from "./types.ts";

const DEFAULT_LIMIT = 500;

const schema = () =>
  z.object({
    path: z.string().optional().describe("Folder to list (default: the cwd)"),
    limit: z.number().int().min(1).optional().describe(`Maximum number of entries (default ${DEFAULT_LIMIT})`),
  });

export const lsTool = defineTool({
  name: "ls",
  mutating: false,
  description: "List a folder's entries, dotfiles included, sorted by name; folders end with '/'.",
  schema,
  async run(args, ctx) {
    const shown = args.path ?? ".";
    const dir = resolvePath(ctx.cwd, shown);
    if (!(await statPath("ls", shown, dir)).isDirectory()) throw new ToolError(`ls: ${shown} is not a folder; use read for files`);
    const entries = await readdir(dir, { withFileTypes: true });
    entries.sort((a, b) => a.name.toLowerCase().localeCompare(b.name.toLowerCase()));
    const limit = args.limit ?? DEFAULT_LIMIT;
    const names: string[] = [];
    for (const entry of entries.slice(0, limit)) {
      const isDir =
        entry.isDirectory() ||
        (entry.isSymbolicLink() &&
          (await stat(join(dir, entry.name)).then(
            (s) => s.isDirectory(),
            () => false,
          )));
      names.push(isDir ? `${entry.name}/` : entry.name);
    }
    if (names.length === 0) return { content: [{ type: "text", text: `${shown} is empty` }] };
    const more = entries.length - names.length;
    const note = more > 0 ? `\n\n[${more} more entries; use limit=${entries.length} to see all.]` : "";
    return { content: [{ type: "text", text: names.join("\n") + note }], details: { count: entries.length } };
  },
});
