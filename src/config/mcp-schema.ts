/**
 * One MCP server entry of the config file (and of `set_mcp_servers`, ACP's
 * `session/new`), apart from config/schema.ts so that checking a server handed
 * over at run time does not build the whole config schema.
 */
import * as z from "zod/mini";

const stringMap = () => z.optional(z.record(z.string(), z.string()));

/**
 * One MCP server in the shape MCP clients share: a command to spawn (stdio)
 * or a URL (streamable HTTP, falling back to the legacy SSE transport).
 * `type` pins the transport when a host knows it. Built on first use: most
 * starts have no server to check.
 */
const buildMcpServerSchema = () =>
  z.union([
    z.object({
      type: z.optional(z.literal("stdio")),
      command: z.string().check(z.minLength(1)),
      args: z._default(z.array(z.string()), []),
      env: stringMap(),
      cwd: z.optional(z.string()),
      enabled: z._default(z.boolean(), true),
    }),
    z.object({
      type: z.optional(z.enum(["http", "sse"])),
      url: z.url(),
      headers: stringMap(),
      enabled: z._default(z.boolean(), true),
    }),
  ]);

let mcpServer: ReturnType<typeof buildMcpServerSchema> | undefined;

export function mcpServerSchema(): ReturnType<typeof buildMcpServerSchema> {
  mcpServer ??= buildMcpServerSchema();
  return mcpServer;
}

export type McpServerSpec = z.infer<ReturnType<typeof buildMcpServerSchema>>;

/** Server names become part of tool names, so they are kept to what every provider accepts. */
export const mcpServerName = () => z.string().check(z.regex(/^[A-Za-z0-9_.-]+$/, "must be letters, digits, _ . or -"));
