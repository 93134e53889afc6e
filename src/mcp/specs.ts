/**
 * Server specs handed over at run time, by an RPC host (`set_mcp_servers`) or
 * an ACP editor (`session/new` `mcpServers`), checked against the config's
 * schema and with `${VAR}` expanded as the config file's strings are.
 */
import { mcpServerName, mcpServerSchema, type McpServerSpec } from "../config/mcp-schema.ts";

export class SpecError extends Error {}

const envRef = /\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g;

export function parseSpecs(raw: Record<string, unknown>, field: string, env: Record<string, string | undefined>): Record<string, McpServerSpec> {
  const specs: Record<string, McpServerSpec> = {};
  const nameCheck = mcpServerName();
  for (const [name, value] of Object.entries(raw)) {
    if (!nameCheck.safeParse(name).success) throw new SpecError(`${field}: server name ${JSON.stringify(name)} must be letters, digits, _ . or -`);
    const parsed = mcpServerSchema().safeParse(expand(value, env));
    if (!parsed.success) throw new SpecError(`${field}.${name}: ${describe(value, parsed.error.issues)}`);
    specs[name] = parsed.data;
  }
  return specs;
}

/** ACP's McpServer variants: stdio `{name, command, args, env: [{name, value}]}`, `{type: "http"|"sse", name, url, headers: [{name, value}]}`. */
export interface AcpServer {
  name: string;
  type?: string;
  command?: string;
  args?: string[];
  env?: { name: string; value: string }[];
  url?: string;
  headers?: { name: string; value: string }[];
}

export function fromAcp(servers: AcpServer[], env: Record<string, string | undefined>): Record<string, McpServerSpec> {
  const raw: Record<string, unknown> = {};
  servers.forEach((s, i) => {
    const pairs = (list: { name: string; value: string }[] | undefined) => Object.fromEntries((list ?? []).map((p) => [p.name, p.value]));
    const name = typeof s.name === "string" && s.name ? s.name : `server${i + 1}`;
    raw[name.replace(/[^A-Za-z0-9_.-]/g, "_")] =
      s.type === "http" || s.type === "sse" ? { type: s.type, url: s.url, headers: pairs(s.headers) } : { command: s.command, args: s.args ?? [], env: pairs(s.env) };
  });
  return parseSpecs(raw, "mcpServers", env);
}

function expand(value: unknown, env: Record<string, string | undefined>): unknown {
  if (typeof value === "string") return value.replace(envRef, (_, name: string) => env[name] ?? "");
  if (Array.isArray(value)) return value.map((v) => expand(v, env));
  if (value && typeof value === "object") return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, expand(v, env)]));
  return value;
}

/** The first problem, naming the field: a union failure is explained as the two shapes a server can have. */
function describe(value: unknown, issues: { path: PropertyKey[]; message: string; code?: string }[]): string {
  const issue = issues[0]!;
  if (issue.code === "invalid_union" || issue.path.length === 0) {
    const keys = value && typeof value === "object" ? Object.keys(value) : [];
    if (!keys.includes("command") && !keys.includes("url")) return `needs "command" (a stdio server) or "url" (an HTTP server), got ${JSON.stringify(value)?.slice(0, 120)}`;
    const shape = keys.includes("command") ? 0 : 1;
    const inner = (issue as { errors?: { path: PropertyKey[]; message: string }[][] }).errors?.[shape]?.[0];
    if (inner) return `${inner.path.join(".")}: ${inner.message}`;
  }
  return `${issue.path.join(".")}: ${issue.message}`;
}
