/**
 * An MCP server's tool as a nova tool: the server's own schema and
 * description, a permission check like a flagged bash command, progress as
 * partial results, and the answer in nova's content model.
 */
import { toToolResult } from "./results.ts";
import type { McpServer, RemoteTool } from "./server.ts";
import { McpCallError, type McpCallContext, type McpResult, type McpTool } from "./types.ts";

export interface McpRules {
  allow: string[];
  deny: string[];
}

export function mcpTool(server: McpServer, remote: RemoteTool, name: string, rules: McpRules): McpTool {
  return {
    name,
    label: remote.title ?? remote.annotations?.title ?? `${server.name}: ${remote.name}`,
    description: remote.description ?? `${remote.name} (from the MCP server ${server.name})`,
    parameters: remote.inputSchema ?? { type: "object", properties: {} },
    mutating: remote.annotations?.readOnlyHint !== true,
    async execute(args, ctx) {
      try {
        await gate(server, remote, name, args, rules, ctx);
        const result = await server.callTool(remote.name, args, {
          signal: ctx.signal,
          onProgress: ({ progress, total, message }) => {
            const text = `${message ? `${message} ` : ""}(${progress}${total !== undefined ? `/${total}` : ""})`;
            ctx.onUpdate({ content: [{ type: "text", text }], details: { server: server.name, progress, total } });
          },
        });
        return toToolResult(result, server.name);
      } catch (error) {
        if (ctx.signal.aborted || !(error instanceof McpCallError)) throw error;
        return failed(error.message, server.name);
      }
    },
  };
}

/**
 * `deny` wins, then `allow`, then the tool's own `readOnlyHint`; anything else
 * is asked for through the approval channel in use, with the arguments.
 */
export function mcpVerdict(server: string, tool: string, readOnly: boolean, rules: McpRules): { verdict: "allow" | "ask" | "deny"; rule?: string } {
  const names = [`${server}__${tool}`, `mcp__${server}__${tool}`];
  const match = (list: string[]) => list.find((rule) => names.some((n) => glob(rule).test(n)));
  const denied = match(rules.deny);
  if (denied) return { verdict: "deny", rule: denied };
  const allowed = match(rules.allow);
  if (allowed) return { verdict: "allow", rule: allowed };
  return { verdict: readOnly ? "allow" : "ask" };
}

async function gate(server: McpServer, remote: RemoteTool, name: string, args: Record<string, unknown>, rules: McpRules, ctx: McpCallContext): Promise<void> {
  const check = mcpVerdict(server.name, remote.name, remote.annotations?.readOnlyHint === true, rules);
  if (check.verdict === "deny") throw new McpCallError(`${name}: blocked by the deny rule "${check.rule}" in permissions.mcp`);
  if (check.verdict === "allow") return;
  if (!ctx.askPermission) throw new McpCallError(`${name}: this MCP tool needs the user's approval, but there is no one to ask here; it was not run`);
  const shown = JSON.stringify(args);
  const command = `${server.name} ${remote.name} ${shown.length > 500 ? `${shown.slice(0, 500)}…` : shown}`;
  const approved = await ctx.askPermission({ toolName: name, kind: "mcp", command, arguments: args }, ctx.signal);
  if (!approved) throw new McpCallError(`${name}: permission denied by the user`);
}

function failed(text: string, server: string): McpResult {
  return { content: [{ type: "text", text }], details: { server }, isError: true };
}

/** `*` matches anything, `?` one character; everything else is literal. */
function glob(rule: string): RegExp {
  const source = rule
    .trim()
    .replace(/[.+^${}()|[\]\\]/g, "\\$&")
    .replace(/\*/g, ".*")
    .replace(/\?/g, ".");
  return new RegExp(`^${source}$`);
}
