/** `write`: create or replace a whole file. */
import { z } from "zod";
import { atomicWrite } from "./atomic-write.ts";
import { defineTool } from "./define.ts";
import { resolvePath } from "./paths.ts";
import { ToolError } from "./types.ts";

const schema = z.object({
  path: z.string().describe("Path to the file to write (relative to the cwd or absolute)"),
  content: z.string().describe("The complete new content of the file"),
});

export const writeTool = defineTool({
  name: "write",
  description: "Write a file, replacing it if it exists. Parent folders are created as needed.",
  schema,
  async run(args, ctx) {
    const path = resolvePath(ctx.cwd, args.path);
    const bytes = Buffer.from(args.content, "utf8");
    try {
      if (ctx.fs) await ctx.fs.writeTextFile(path, args.content);
      else await atomicWrite(path, bytes);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      const why = code === "EISDIR" ? "it is a directory" : (err as Error).message;
      throw new ToolError(`write: cannot write ${args.path}: ${why}`);
    }
    return {
      content: [{ type: "text", text: `Wrote ${bytes.length} bytes to ${args.path}` }],
      details: { path, bytes: bytes.length },
    };
  },
});
