/** `todo`: the model keeps the session's todo list, the same list the host sets with `set_todos`. */
import { z } from "zod";
import { todoStatuses } from "../core/enums.ts";
import { defineTool } from "./define.ts";
import { ToolError } from "./types.ts";

const schema = () =>
  z.object({
    phases: z
      .array(
        z.object({
          name: z.string().min(1),
          tasks: z.array(z.object({ content: z.string().min(1), status: z.enum(todoStatuses) })),
        }),
      )
      .describe("The whole list, replacing the previous one: phases of tasks, each task with its status"),
  });

export const todoTool = defineTool({
  name: "todo",
  mutating: false,
  description: "Replace the todo list that tracks this task's steps. Keep exactly one task in_progress while working; mark tasks completed as soon as they are done.",
  schema,
  async run(args, ctx) {
    const todos = ctx.host?.todos;
    if (!todos) throw new ToolError("todo: this session has no todo list");
    todos.set(args.phases);
    return { content: [{ type: "text", text: todos.render() }], details: { phases: todos.get() } };
  },
});
