/** `write`: create or replace a whole file. */
import { z } from "zod";
import { atomicWrite } from "./atomic-write.ts";
import { defineTool } from "./define.ts";
import { resolvePath } from "./paths.ts";
import { ToolError } from "./types.ts";

const schema = () =>
  z.object({
    path: z.string().describe("Path to the file to write (relative to the cwd or absolute)"),
    content: z.string().describe("The complete new content of the file"),
  });

export const writeTool = defineTool({
  name: "write",
  mutating: true,
  description: "Write a file, replacing it if it exists. Parent folders are created as needed.",
  schema,
  async run(args, ctx) {
    const bytes = Buffer.from(args.content, "utf8");
    const uri = ctx.host?.uris?.schemeOf(args.path);
    if (uri) {
      if (!uri.writable) throw new ToolError(`write: the host registered the "${uri.scheme}" scheme without writable, so ${args.path} cannot be written`);
      try {
        await ctx.host!.uris!.write(args.path, args.content, ctx.signal);
      } catch (error) {
        throw new ToolError(`write: ${args.path}: ${(error as Error).message}`);
      }
      return { content: [{ type: "text", text: `Wrote ${bytes.length} bytes to ${args.path}` }], details: { url: args.path, bytes: bytes.length } };
    }
    const path = resolvePath(ctx.cwd, args.path);
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
