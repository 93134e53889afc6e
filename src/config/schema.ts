/** The config file's shape (PROTOCOL.md §8), validated with zod. */
import { z } from "zod";

export const apiNames = ["openai-chat", "openai-responses", "anthropic", "ollama", "google"] as const;

const modelSchema = z.object({
  id: z.string().min(1),
  name: z.string().optional(),
  contextWindow: z.number().int().positive().default(128000),
  maxTokens: z.number().int().positive().default(8192),
  input: z.array(z.enum(["text", "image"])).default(["text"]),
  reasoning: z.boolean().default(false),
  cost: z
    .object({
      input: z.number().nonnegative().default(0),
      output: z.number().nonnegative().default(0),
      cacheRead: z.number().nonnegative().default(0),
      cacheWrite: z.number().nonnegative().default(0),
    })
    .optional(),
});

const providerSchema = z.object({
  api: z.enum(apiNames),
  baseUrl: z.string().url(),
  apiKey: z.string().optional(),
  headers: z.record(z.string(), z.string()).optional(),
  models: z.array(modelSchema).default([]),
});

const ruleList = z.array(z.string()).default([]);

export const configSchema = z.object({
  defaultModel: z.string().regex(/^[^/]+\/.+$/, "must be provider/id").optional(),
  defaultThinkingLevel: z.enum(["off", "minimal", "low", "medium", "high", "xhigh", "max"]).optional(),
  providers: z.record(z.string().regex(/^[A-Za-z0-9_.-]+$/, "must be letters, digits, _ . or -"), providerSchema).default({}),
  permissions: z
    .object({ bash: z.object({ ask: ruleList, allow: ruleList, deny: ruleList }).default({ ask: [], allow: [], deny: [] }) })
    .default({ bash: { ask: [], allow: [], deny: [] } }),
  compaction: z
    .object({
      enabled: z.boolean().default(true),
      reserveTokens: z.number().int().nonnegative().default(16384),
      keepRecentTokens: z.number().int().nonnegative().default(20000),
    })
    .default({ enabled: true, reserveTokens: 16384, keepRecentTokens: 20000 }),
  retry: z
    .object({
      enabled: z.boolean().default(true),
      maxRetries: z.number().int().nonnegative().default(3),
      baseDelayMs: z.number().int().nonnegative().default(2000),
      maxDelayMs: z.number().int().positive().default(60000),
    })
    .default({ enabled: true, maxRetries: 3, baseDelayMs: 2000, maxDelayMs: 60000 }),
  stream: z.object({ idleTimeoutMs: z.number().int().positive().default(120000) }).default({ idleTimeoutMs: 120000 }),
  session: z.object({ backgroundLimit: z.number().int().positive().default(4) }).default({ backgroundLimit: 4 }),
  agent: z
    .object({
      maxConcurrency: z.number().int().positive().default(4),
      maxNestedSpawnDepth: z.number().int().nonnegative().default(2),
    })
    .default({ maxConcurrency: 4, maxNestedSpawnDepth: 2 }),
});

export type ConfigFile = z.infer<typeof configSchema>;
