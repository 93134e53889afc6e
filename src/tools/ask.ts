/**
 * `ask` (rpc-ui only): the model asks the user a question through the host's
 * dialogs: a choice when it offers options, a text box otherwise.
 */
import { z } from "zod";
import { defineTool } from "./define.ts";
import { ToolError } from "./types.ts";

const schema = () =>
  z.object({
    question: z.string().min(1).describe("The question, as the user should read it"),
    options: z.array(z.string().min(1)).min(2).optional().describe("Answers to choose from; omit for a free-text answer"),
    multiline: z.boolean().optional().describe("Ask for a longer free-text answer in an editor"),
    confirm: z.boolean().optional().describe("Ask a yes/no question"),
    timeoutSeconds: z.number().positive().optional().describe("Give up waiting after this long (the user's answer is then missing)"),
  });

export const askTool = defineTool({
  name: "ask",
  mutating: false,
  description: "Ask the user a question and wait for the answer. Use it when you need a decision or information only the user has.",
  schema,
  async run(args, ctx) {
    const ui = ctx.host?.ui;
    if (!ui) throw new ToolError("ask: no user interface is attached, so nobody can answer");
    const opts = { signal: ctx.signal, timeout: args.timeoutSeconds ? args.timeoutSeconds * 1000 : undefined };
    if (args.confirm) {
      const yes = await ui.confirm("Question", args.question, opts);
      return { content: [{ type: "text", text: `The user answered: ${yes ? "yes" : "no"}` }], details: { answered: true, answer: yes } };
    }
    const answer = args.options
      ? await ui.select(args.question, args.options, opts)
      : args.multiline
        ? await ui.editor(args.question, undefined, opts)
        : await ui.input(args.question, undefined, opts);
    if (answer === undefined) return { content: [{ type: "text", text: "The user did not answer." }], details: { answered: false } };
    return { content: [{ type: "text", text: `The user answered: ${answer}` }], details: { answered: true, answer } };
  },
});
