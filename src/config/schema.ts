/**
 * The config file's shape (PROTOCOL.md §8), validated with zod. Written with
 * zod/mini: a config file is read at every start, and mini builds and checks
 * this schema in a fraction of the time classic zod takes.
 *
 * Every object of the file's own sections is a `z.strictObject`: a key the
 * schema does not name is an error (`config/unknown-keys.ts` words it), so
 * adding a field here is all a new setting needs, and
 * test/config/messages.test.ts fails on a plain one. (MCP server entries,
 * checked on first use, keep the looser shape other MCP clients write.)
 *
 * Building this schema costs several milliseconds, so a start does not build
 * it: without a config file config/load.ts takes the defaults the build baked
 * in (NOVA_CONFIG_DEFAULTS in build.ts), with one it walks the JSON Schema the
 * build baked in (core/fast-check.ts), and the zod schema is built only for
 * a file that walk refuses, to word the message.
 */
import * as z from "zod/mini";
import { apiNames, permissionModes, permissionPrompts, sandboxModes, thinkingLevels } from "../core/enums.ts";
import { mcpServerName } from "./mcp-schema.ts";
import type { SchemaNode } from "../core/fast-check.ts";
import { once } from "../core/once.ts";

export { mcpServerName, mcpServerSchema, type McpServerSpec } from "./mcp-schema.ts";

const positiveInt = once(() => z.int().check(z.positive()));
const nonNegativeInt = once(() => z.int().check(z.nonnegative()));
const positiveNumber = once(() => z.number().check(z.positive()));
const strings = once(() => z.array(z.string()));
const ruleList = () => z._default(strings(), []);
const providerId = once(() => z.string().check(z.regex(/^[^/]+\/.+$/, "must be provider/id")));
const price = once(() => z._default(z.number().check(z.nonnegative()), 0));
const costSchema = once(() => z.strictObject({ input: price(), output: price(), cacheRead: price(), cacheWrite: price() }));

const modelSchema = () =>
  z.strictObject({
    id: z.string().check(z.minLength(1)),
    name: z.optional(z.string()),
    contextWindow: z._default(positiveInt(), 128000),
    maxTokens: z._default(positiveInt(), 8192),
    input: z._default(z.array(z.enum(["text", "image"])), ["text"]),
    reasoning: z._default(z.boolean(), false),
    /** the thinking levels the model takes; without it, off through high (xhigh and max must be declared) */
    thinkingLevels: z.optional(z.array(z.enum(thinkingLevels))),
    replayReasoning: z.optional(z.boolean()),
    cost: z.optional(costSchema()),
  });

const providerSchema = () =>
  z.strictObject({
    api: z.enum(apiNames),
    /** required by every api but `scripted` (checked in load.ts, which knows the line) */
    baseUrl: z.optional(z.url()),
    /** api scripted: the script file, relative to the config file */
    script: z.optional(z.string().check(z.minLength(1))),
    apiKey: z.optional(z.string()),
    headers: z.optional(z.record(z.string(), z.string())),
    discover: z.optional(z.boolean()),
    models: z._default(z.array(modelSchema()), []),
  });

const sandboxDefaults = { mode: "off" as const, network: false, writablePaths: [], hidePaths: [], fallback: "error" as const, autoAllow: true, mcp: false };

const checkpointDefaults = { enabled: true, maxFileBytes: 10 * 1024 * 1024, maxFiles: 50_000, maxAgeDays: 14, maxBytes: 1024 * 1024 * 1024 };

const bashRules = { ask: [], allow: [], deny: [] };
const mcpRules = { allow: [], deny: [] };
/** write/edit targets that ask even inside the cwd (docs/permissions.md); nova's own config and auth files are always added */
export const DEFAULT_PROTECTED = [".git/**", ".env*", "**/.ssh/**"];
const fileRules = { protected: DEFAULT_PROTECTED, allow: [], deny: [] };
const toolRules = { allow: [], deny: [] };

const mcpSettings = { waitMs: 10000, connectTimeoutMs: 30000, callTimeoutMs: 600000 };

/** Claude Code's command hooks (docs/permissions.md#hooks). */
export const hookEvents = ["PreToolUse", "PostToolUse", "UserPromptSubmit", "Stop", "SessionStart"] as const;
const hookMatcher = () =>
  z.strictObject({
    matcher: z.optional(z.string()),
    hooks: z.array(z.strictObject({ type: z.literal("command"), command: z.string().check(z.minLength(1)), timeout: z.optional(positiveNumber()) })),
  });
export type HookSettings = Partial<Record<(typeof hookEvents)[number], z.infer<ReturnType<typeof hookMatcher>>[]>>;

/** The whole file's schema, built on first call (only for a file core/fast-check.ts does not accept, and by the build). */
export const configSchema = once(() =>
  z.strictObject({
    /** Claude-Code-compatible command hooks; absent: nothing about hooks is loaded */
    hooks: z.optional(z.partialRecord(z.enum(hookEvents), z.array(hookMatcher()))),
    defaultModel: z.optional(providerId()),
    defaultThinkingLevel: z.optional(z.enum(thinkingLevels)),
    providers: z._default(z.record(z.string().check(z.regex(/^[A-Za-z0-9_.-]+$/, "must be letters, digits, _ . or -")), providerSchema()), {}),
    permissions: z._default(
      z.strictObject({
        bash: z._default(z.strictObject({ ask: ruleList(), allow: ruleList(), deny: ruleList() }), bashRules),
        mcp: z._default(z.strictObject({ allow: ruleList(), deny: ruleList() }), mcpRules),
        files: z._default(z.strictObject({ protected: z._default(strings(), DEFAULT_PROTECTED), allow: ruleList(), deny: ruleList() }), fileRules),
        tools: z._default(z.strictObject({ allow: ruleList(), deny: ruleList() }), toolRules),
        mode: z._default(z.enum(permissionModes), "default"),
        env: z._default(z.strictObject({ pass: ruleList() }), { pass: [] }),
        prompt: z.optional(z.enum(permissionPrompts)),
      }),
      { bash: bashRules, mcp: mcpRules, files: fileRules, tools: toolRules, mode: "default", env: { pass: [] } },
    ),
    /** each entry is checked against mcpServerSchema() by the loader, only when there are entries */
    mcpServers: z._default(z.record(mcpServerName(), z.unknown()), {}),
    mcp: z._default(
      z.strictObject({
        waitMs: z._default(nonNegativeInt(), mcpSettings.waitMs),
        connectTimeoutMs: z._default(positiveInt(), mcpSettings.connectTimeoutMs),
        callTimeoutMs: z._default(positiveInt(), mcpSettings.callTimeoutMs),
      }),
      mcpSettings,
    ),
    compaction: z._default(
      z.strictObject({
        enabled: z._default(z.boolean(), true),
        reserveTokens: z._default(nonNegativeInt(), 16384),
        keepRecentTokens: z._default(nonNegativeInt(), 20000),
      }),
      { enabled: true, reserveTokens: 16384, keepRecentTokens: 20000 },
    ),
    retry: z._default(
      z.strictObject({
        enabled: z._default(z.boolean(), true),
        maxRetries: z._default(nonNegativeInt(), 3),
        baseDelayMs: z._default(nonNegativeInt(), 2000),
        maxDelayMs: z._default(positiveInt(), 60000),
      }),
      { enabled: true, maxRetries: 3, baseDelayMs: 2000, maxDelayMs: 60000 },
    ),
    stream: z._default(z.strictObject({ idleTimeoutMs: z._default(positiveInt(), 120000), maxLineBytes: z._default(positiveInt(), 16 * 1024 * 1024) }), {
      idleTimeoutMs: 120000,
      maxLineBytes: 16 * 1024 * 1024,
    }),
    session: z._default(z.strictObject({ backgroundLimit: z._default(positiveInt(), 4) }), { backgroundLimit: 4 }),
    sandbox: z._default(
      z.strictObject({
        mode: z._default(z.enum(sandboxModes), "off"),
        network: z._default(z.boolean(), false),
        writablePaths: z._default(strings(), []),
        hidePaths: z._default(strings(), []),
        fallback: z._default(z.enum(["error", "warn"]), "error"),
        autoAllow: z._default(z.boolean(), true),
        mcp: z._default(z.boolean(), false),
      }),
      sandboxDefaults,
    ),
    checkpoints: z._default(
      z.strictObject({
        enabled: z._default(z.boolean(), true),
        maxFileBytes: z._default(positiveInt(), 10 * 1024 * 1024),
        maxFiles: z._default(positiveInt(), 50_000),
        maxAgeDays: z._default(positiveNumber(), 14),
        maxBytes: z._default(positiveInt(), 1024 * 1024 * 1024),
      }),
      checkpointDefaults,
    ),
    /** "provider/id" → $ per million tokens, over the built-in price table (config/prices.json) and a model's own `cost` */
    costs: z._default(z.record(providerId(), costSchema()), {}),
    /** per-prompt limits a prompt does not set itself (docs/rpc.md "Budgets") */
    limits: z._default(
      z.strictObject({
        maxTurns: z.optional(positiveInt()),
        maxCostUsd: z.optional(positiveNumber()),
        maxTokens: z.optional(positiveInt()),
      }),
      {},
    ),
    /** outputSchema: how many answers the model may give before the run fails */
    structuredOutput: z._default(z.strictObject({ maxAttempts: z._default(positiveInt(), 3) }), { maxAttempts: 3 }),
    /** provider name → how long Anthropic-style cache breakpoints live */
    cacheRetention: z._default(z.record(z.string(), z.enum(["5m", "1h"])), {}),
    agent: z._default(z.strictObject({ maxConcurrency: z._default(positiveInt(), 4), maxNestedSpawnDepth: z._default(nonNegativeInt(), 2) }), {
      maxConcurrency: 4,
      maxNestedSpawnDepth: 2,
    }),
  }),
);

export type ConfigFile = z.infer<ReturnType<typeof configSchema>>;

/** The input side of the schema as JSON Schema, for core/fast-check.ts (build.ts bakes it in). */
export const configJsonSchema = once(() => z.toJSONSchema(configSchema(), { io: "input" }) as SchemaNode);
