/**
 * The params of each client method nova reads, as zod schemas. Unknown fields
 * (`_meta`, later protocol additions) pass through; a missing or mistyped
 * field becomes -32602 naming it, e.g. `params.prompt[0].text is required`.
 */
import { z } from "zod";
import { describeIssue } from "../core/describe-issue.ts";
import { INVALID_PARAMS, RpcError } from "./errors.ts";

const sessionId = z.string().min(1);
const absolutePath = z.string().refine((p) => p.startsWith("/") || /^[A-Za-z]:[\\/]/.test(p), "must be an absolute path");
/** accepted so editors can send their servers; nova does not run MCP */
const mcpServers = z.array(z.unknown()).optional();

export const initializeParams = z.looseObject({
  protocolVersion: z.number().int().min(0),
  clientCapabilities: z
    .looseObject({
      fs: z.looseObject({ readTextFile: z.boolean().optional(), writeTextFile: z.boolean().optional() }).optional(),
      terminal: z.boolean().optional(),
    })
    .optional(),
});
export type InitializeParams = z.infer<typeof initializeParams>;

export const authenticateParams = z.looseObject({ methodId: z.string() });

export const newSessionParams = z.looseObject({ cwd: absolutePath, mcpServers });

export const loadSessionParams = z.looseObject({ sessionId, cwd: absolutePath, mcpServers });

export const listSessionsParams = z.looseObject({ cwd: absolutePath.nullish(), cursor: z.string().nullish() });

const textResource = z.looseObject({ uri: z.string(), text: z.string(), mimeType: z.string().nullish() });
const blobResource = z.looseObject({ uri: z.string(), blob: z.string(), mimeType: z.string().nullish() });

export const contentBlock = z.discriminatedUnion("type", [
  z.looseObject({ type: z.literal("text"), text: z.string() }),
  z.looseObject({ type: z.literal("image"), data: z.string(), mimeType: z.string(), uri: z.string().nullish() }),
  z.looseObject({ type: z.literal("audio"), data: z.string(), mimeType: z.string() }),
  z.looseObject({ type: z.literal("resource_link"), uri: z.string(), name: z.string(), mimeType: z.string().nullish() }),
  z.looseObject({ type: z.literal("resource"), resource: z.union([textResource, blobResource]) }),
]);
export type ContentBlock = z.infer<typeof contentBlock>;

/** `_meta["nova/run"]`: what an rpc prompt carries as fields (docs/acp.md "Structured output and budgets") */
const runMeta = z.object({
  outputSchema: z.record(z.string(), z.unknown()).optional(),
  maxTurns: z.number().int().positive().optional(),
  maxCostUsd: z.number().positive().optional(),
  maxTokens: z.number().int().positive().optional(),
});

export const promptParams = z.looseObject({ sessionId, prompt: z.array(contentBlock), _meta: z.looseObject({ "nova/run": runMeta.optional() }).optional() });

export type RunMeta = z.infer<typeof runMeta>;

export const cancelParams = z.looseObject({ sessionId });

export const checkpointsParams = z.looseObject({ sessionId });
export const revertParams = z.looseObject({
  sessionId,
  entryId: z.string(),
  dryRun: z.boolean().optional(),
  paths: z.array(z.string()).optional(),
  force: z.boolean().optional(),
});

export const setModelParams = z.looseObject({ sessionId, modelId: z.string().min(1) });

export const setModeParams = z.looseObject({ sessionId, modeId: z.string().min(1) });

export const setConfigOptionParams = z.looseObject({ sessionId, configId: z.string(), value: z.union([z.string(), z.boolean()]) });

/** Checks a method's params; throws -32602 naming the first bad field. */
export function parseParams<S extends z.ZodType>(method: string, schema: S, params: unknown): z.infer<S> {
  const parsed = z.object({ params: schema }).safeParse({ params: params ?? {} }, { reportInput: true });
  if (parsed.success) return (parsed.data as { params: z.infer<S> }).params;
  throw new RpcError(INVALID_PARAMS, `Invalid params for ${method}: ${describeIssue(parsed.error.issues[0]!)}`);
}
