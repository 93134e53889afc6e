/**
 * What `ready` tells a host before its first command: which protocol this is
 * (docs/rpc.md "Versioning": the major moves only on a breaking change, the
 * minor on additions) and which sub-protocols this build serves.
 */
export const PROTOCOL_VERSION = "1.1";

export const capabilities = ["hostTools", "hostUris", "ui", "permissions", "mcp", "subagents", "checkpoints", "todos", "images", "login", "backgroundSessions"] as const;
export type Capability = (typeof capabilities)[number];
