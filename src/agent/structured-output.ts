/**
 * A prompt's `outputSchema`: the run ends with an answer that validates
 * against it. Where the wire format has a native structured-output mode that
 * works alongside tools (OpenAI chat `response_format`, Responses
 * `text.format`), the provider is asked for JSON in that schema and the final
 * text is validated; everywhere else the model gets a `structured_output`
 * tool whose arguments are the answer. An answer that does not validate goes
 * back to the model with the validator's errors until `maxAttempts` answers
 * were given. Loaded only when a prompt carries a schema.
 */
import { z } from "zod";
import type { ApiName } from "../core/enums.ts";
import type { AssistantMessage, UserMessage } from "../core/messages.ts";
import { blockText } from "../core/text.ts";
import { ToolError, type Tool } from "../tools/types.ts";

export const OUTPUT_TOOL = "structured_output";

/** The wire formats whose native JSON Schema mode works in a tool loop. */
const NATIVE: readonly ApiName[] = ["openai-chat", "openai-responses"];

/** A checked schema, ready for any number of runs. */
export interface OutputSpec {
  /** what the provider or the tool is given: always an object schema (others are wrapped in `{value}`) */
  wire: Record<string, unknown>;
  start(maxAttempts: number): StructuredOutput;
}

/** The schema as a validator, or an Error whose message names what is wrong with it. */
export function compileOutputSchema(schema: unknown): OutputSpec {
  if (typeof schema !== "object" || schema === null || Array.isArray(schema)) throw new Error(`outputSchema must be a JSON Schema object, got ${JSON.stringify(schema)}`);
  let validator: z.ZodType;
  try {
    validator = z.fromJSONSchema(schema as Parameters<typeof z.fromJSONSchema>[0]);
  } catch (error) {
    throw new Error(`outputSchema is not a usable JSON Schema: ${(error as Error).message}`);
  }
  const wrapped = (schema as { type?: unknown }).type !== "object";
  const wire = wrapped ? { type: "object", properties: { value: schema }, required: ["value"], additionalProperties: false } : (schema as Record<string, unknown>);
  return { wire, start: (maxAttempts) => new StructuredOutput(validator, wire, wrapped, maxAttempts) };
}

/** One run's pursuit of a valid answer. */
export class StructuredOutput {
  private attempts = 0;
  private result: { value: unknown } | undefined;
  private errors: string | undefined;
  private gaveUp = false;
  readonly tool: Tool;

  constructor(
    private readonly validator: z.ZodType,
    readonly wire: Record<string, unknown>,
    private readonly wrapped: boolean,
    private readonly maxAttempts: number,
  ) {
    this.tool = {
      name: OUTPUT_TOOL,
      description: "Give your final answer as this tool's arguments, matching its schema exactly. Call it once, when the task is done; the run ends with it.",
      parameters: wire,
      mutating: false,
      execute: async (args) => {
        const errors = this.offer(this.wrapped ? args.value : args);
        if (errors) throw new ToolError(`The answer does not match the schema:\n${errors}\nCall ${OUTPUT_TOOL} again with a corrected answer.`);
        return { content: [{ type: "text", text: "Answer recorded." }] };
      },
    };
  }

  /** Whether requests to this wire format carry the schema natively (no tool). */
  nativeFor(api: string): boolean {
    return (NATIVE as readonly string[]).includes(api);
  }

  /** The answer this message gives, once valid: the tool's arguments, or a native answer's JSON text. */
  turnOutput(message: AssistantMessage): unknown {
    if (this.result === undefined && !this.gaveUp && this.nativeFor(message.api) && !message.content.some((c) => c.type === "toolCall")) {
      const text = blockText(message.content).trim();
      let value: unknown;
      try {
        value = JSON.parse(text);
      } catch {
        this.offer(undefined, `the answer is not JSON: ${text.length > 80 ? `${text.slice(0, 77)}...` : text}`);
        return undefined;
      }
      this.offer(this.wrapped && isRecord(value) && "value" in value ? value.value : value);
    }
    return this.result?.value;
  }

  /** The run would stop without an answer: the errors go back to the model, unless its tries are used up. */
  beforeStop(message: AssistantMessage | undefined): UserMessage[] {
    if (this.result !== undefined || this.gaveUp) return [];
    const native = message !== undefined && this.nativeFor(message.api);
    // a tool-mode answer in plain text is a try too
    if (!native && message) this.offer(undefined, `the answer was plain text, not a ${OUTPUT_TOOL} call`);
    if (this.gaveUp) return [];
    const text = native
      ? `Your answer does not match the required JSON Schema:\n${this.errors}\nAnswer again with only the corrected JSON.`
      : `Give your final answer by calling the ${OUTPUT_TOOL} tool (${this.errors}).`;
    return [{ role: "user", content: text, timestamp: Date.now() }];
  }

  /** The run is over: the answer is in, or no try is left. */
  done(): boolean {
    return this.result !== undefined || this.gaveUp;
  }

  outcome(): { structuredOutput?: unknown; error?: string } {
    if (this.result) return { structuredOutput: this.result.value };
    if (this.gaveUp) return { error: `No answer matched the output schema after ${this.attempts} attempts; the last one: ${this.errors}` };
    return { error: `The run ended before an answer matched the output schema${this.errors ? `; the last one: ${this.errors}` : ""}` };
  }

  /** One answer: valid (kept) or the validator's errors (returned; the last attempt gives up). */
  private offer(value: unknown, problem?: string): string | undefined {
    this.attempts++;
    const errors = problem ?? validationErrors(this.validator, value);
    if (errors === undefined) {
      this.result = { value };
      return undefined;
    }
    this.errors = errors;
    if (this.attempts >= this.maxAttempts) this.gaveUp = true;
    return errors;
  }
}

function validationErrors(validator: z.ZodType, value: unknown): string | undefined {
  const parsed = validator.safeParse(value);
  if (parsed.success) return undefined;
  return parsed.error.issues.map((issue) => `${issue.path.length > 0 ? issue.path.join(".") : "(root)"}: ${issue.message}`).join("; ");
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
