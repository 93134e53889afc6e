/**
 * The closed lists of nova's vocabulary, one `as const` list each: zod enums,
 * the flag parser and the config schema take the list, the code takes the type.
 */

/** How hard the model thinks; `clampThinking` maps a level onto what a model supports. */
export const thinkingLevels = ["off", "minimal", "low", "medium", "high", "xhigh", "max"] as const;
export type ThinkingLevel = (typeof thinkingLevels)[number];

/** The wire formats nova speaks; each has one file in `providers/`. */
export const apiNames = ["openai-chat", "openai-responses", "anthropic", "ollama", "google", "scripted"] as const;
export type ApiName = (typeof apiNames)[number];

export const todoStatuses = ["pending", "in_progress", "completed", "abandoned"] as const;
export type TodoStatus = (typeof todoStatuses)[number];

/**
 * What happens to a flagged tool call (docs/permissions.md): `default` asks
 * the host, `acceptEdits` runs write/edit inside the cwd unasked, `plan` runs
 * nothing that mutates, `bypass` runs it (deny rules still hold), `dontAsk`
 * denies whatever would ask.
 */
export const permissionModes = ["default", "acceptEdits", "plan", "bypass", "dontAsk"] as const;

/** What kind of call a permission question is about. */
export const permissionKinds = ["bash", "write", "edit", "mcp", "host"] as const;
export type PermissionKind = (typeof permissionKinds)[number];

/** How long an approval (or refusal) given with `remember` lasts. */
export const rememberScopes = ["session", "always"] as const;
export type RememberScope = (typeof rememberScopes)[number];
export type PermissionMode = (typeof permissionModes)[number];

/** How the OS sandbox confines the model's commands (docs/sandbox.md). */
export const sandboxModes = ["off", "workspace-write", "read-only"] as const;
export type SandboxMode = (typeof sandboxModes)[number];

/** How a flagged bash command is asked about (docs/config.md, permissions.prompt). */
export const permissionPrompts = ["request", "ui", "allow", "deny"] as const;
export type PermissionPrompt = (typeof permissionPrompts)[number];
/** The image formats every provider accepts. */
export const imageMimeTypes = ["image/png", "image/jpeg", "image/gif", "image/webp"] as const;
export type ImageMimeType = (typeof imageMimeTypes)[number];

/** Why a budget stopped a run (agent_end.stopReason), and what a budget_warning is about. */
export const budgetStops = ["max_turns", "max_cost", "max_tokens"] as const;
export type BudgetStop = (typeof budgetStops)[number];
export const budgetKinds = ["turns", "cost", "tokens"] as const;
export type BudgetKind = (typeof budgetKinds)[number];
