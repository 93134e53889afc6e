/** `task`: hands a self-contained piece of work to a child agent with its own context, and returns its answer. */
import { z } from "zod";
import { defineTool } from "./define.ts";
import { ToolError } from "./types.ts";

const schema = () =>
  z.object({
    task: z.string().min(1).describe("What the child agent must do, with every detail it needs: it sees nothing of this conversation"),
    tools: z.array(z.string()).optional().describe("Tools the child may use (default: read, grep, find, ls)"),
    model: z.string().optional().describe("provider/id of the model for the child (default: this one)"),
  });

export const taskTool = defineTool({
  name: "task",
  mutating: true,
  description:
    "Run a sub-agent on a self-contained task (research, a focused search, a review) and get its final answer. " +
    "It starts with a fresh context and read-only tools unless you grant others.",
  schema,
  async run(args, ctx) {
    const runner = ctx.host?.subagents;
    if (!runner) throw new ToolError("task: sub-agents are not available here (nesting limit reached)");
    let progress = "";
    const result = await runner.run(args, ctx.signal, (text) => {
      progress = text;
      ctx.onUpdate({ content: [{ type: "text", text: progress }] });
    });
    return {
      content: [{ type: "text", text: result.text || "(the sub-agent gave no answer)" }],
      details: { agentId: result.agentId },
      isError: result.isError,
    };
  },
});
