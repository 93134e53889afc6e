/**
 * The tools a conversation offers and what they run with. Which ones exist
 * follows from the front end's capabilities (a UI offers `ask`), never from
 * its name; host tools and `task` are re-read at every request, so
 * set_host_tools applies to the next call.
 */
import type { Config } from "../config/load.ts";
import type { TodoList } from "../core/todos.ts";
import type { HostUi, HostUris, SubagentRunner } from "../host/services.ts";
import type { Sandbox } from "../sandbox/index.ts";
import { askTool } from "../tools/ask.ts";
import { builtinTools } from "../tools/index.ts";
import { taskTool } from "../tools/task.ts";
import { todoTool } from "../tools/todo.ts";
import type { PermissionAsker, Tool, ToolContext } from "../tools/types.ts";
import type { McpTools } from "../mcp/index.ts";
import type { ToolServices } from "./loop.ts";
import { selectTools, type ToolSelection } from "./tool-selection.ts";
import { sessionEnvironment, type SessionFacts } from "./tool-env.ts";
import type { PermissionChannel, ToolOrigin } from "./permission-gate.ts";
import { CommandError } from "./errors.ts";

/** What a front end offers every conversation; the core never learns which front end it is. */
export interface Capabilities {
  /** dialogs with the user: bash runs without a PTY, and tools may ask through them */
  ui?: HostUi;
  /** the model may put questions to the user (the `ask` tool); needs `ui` */
  ask?: boolean;
  /** files behind host URI schemes */
  uris?: HostUris;
  /** host-defined tools (set_host_tools) */
  tools?: () => Tool[];
  /** dialogs a permission prompt may use (permissions.prompt: ui) even where tools may not: plain rpc */
  confirmUi?: HostUi;
  /** how a permission question reaches the user (ACP: session/request_permission) */
  askPermission?: PermissionChannel;
}

export interface ToolboxOptions {
  config: Config;
  cwd: string;
  host?: Capabilities;
  /** host services the tools use instead of the local disk and shell (ACP client fs/terminal) */
  clientServices?: Pick<ToolContext, "fs" | "terminal">;
  /** only these built-in tools (a child agent's restricted set) */
  toolFilter?: string[];
  sandbox?: Sandbox;
  /** --tools, --exclude-tools, --no-tools, --no-builtin-tools */
  toolSelection?: ToolSelection;
  /** tools and prompts of MCP servers (config, RPC host, ACP editor); shared with child agents */
  mcp?: McpTools;
}

export class Toolbox {
  private readonly own: Tool[];
  /** every built-in tool this conversation could offer, before --tools/--exclude-tools */
  private readonly available: Tool[];
  private readonly taskAllowed: boolean;
  /** set_tools: name → on (true) or off (false), over the start set */
  private readonly overrides = new Map<string, boolean>();

  constructor(
    private readonly options: ToolboxOptions,
    private readonly todos: TodoList,
    private readonly subagents: () => SubagentRunner | undefined,
  ) {
    const { config, host } = options;
    const sandbox = options.sandbox?.status.active ? options.sandbox : undefined;
    const all = [...builtinTools({ permissions: config.permissions, sandbox }), ...(host?.ui && host.ask ? [askTool] : []), todoTool];
    const only = options.toolFilter;
    this.available = only ? all.filter((t) => only.includes(t.name)) : all;
    this.own = selectTools(this.available, options.toolSelection);
    this.taskAllowed = selectTools([taskTool], options.toolSelection).length > 0 && (!only || only.includes("task"));
  }

  /** Built-in tools, then `task`, then the host's and the MCP servers'; set_tools' changes applied. */
  get all(): Tool[] {
    const host = this.options.host?.tools?.() ?? [];
    const mcp = this.options.mcp?.tools() ?? [];
    const extra = mcp.length === 0 ? host : [...host, ...mcp];
    const taskOn = this.overrides.get("task") ?? this.taskAllowed;
    const task = taskOn && this.subagents() ? [taskTool] : [];
    const tools = extra.length + task.length === 0 ? this.own : [...this.own, ...task, ...extra];
    if (this.overrides.size === 0) return tools;
    const own = this.available.filter((t) => this.overrides.get(t.name) ?? this.own.includes(t));
    return [...own, ...task, ...extra].filter((t) => this.overrides.get(t.name) !== false);
  }

  /** Every tool name set_tools accepts: the built-ins (offered or not), `task`, the host's and the MCP servers'. */
  knownNames(): string[] {
    const host = this.options.host?.tools?.() ?? [];
    const mcp = this.options.mcp?.tools() ?? [];
    return [...new Set([...this.available, ...(this.subagents() ? [taskTool] : []), ...host, ...mcp].map((t) => t.name))];
  }

  /** set_tools: turns tools on and off for the rest of the conversation; an unknown name or one in both lists is refused. */
  setTools(enabled: string[], disabled: string[]): void {
    const known = new Set(this.knownNames());
    for (const [field, names] of [
      ["enabled", enabled],
      ["disabled", disabled],
    ] as const) {
      names.forEach((name, i) => {
        if (!known.has(name)) throw new CommandError(`${field}[${i}]: ${JSON.stringify(name)} is not a tool here (known: ${[...known].join(", ")})`);
      });
    }
    const both = enabled.find((name) => disabled.includes(name));
    if (both) throw new CommandError(`${JSON.stringify(both)} is in both enabled and disabled`);
    for (const name of enabled) this.overrides.set(name, true);
    for (const name of disabled) this.overrides.set(name, false);
  }

  /** set_tools' changes, for a successor conversation (new_session) */
  get toolOverrides(): ReadonlyMap<string, boolean> {
    return this.overrides;
  }

  adoptOverrides(from: ReadonlyMap<string, boolean>): void {
    for (const [name, on] of from) this.overrides.set(name, on);
  }

  /** Where a tool comes from, for the permission gate. */
  originOf(tool: Tool): ToolOrigin {
    if (this.options.host?.tools?.().includes(tool)) return "host";
    if (this.options.mcp?.tools().some((t) => t.name === tool.name)) return "mcp";
    return "builtin";
  }

  /** What every tool call gets besides its arguments. */
  services(askPermission: PermissionAsker, facts: SessionFacts): ToolServices {
    const { host } = this.options;
    return {
      cwd: this.options.cwd,
      askPermission,
      hasUI: host?.ui !== undefined,
      env: sessionEnvironment(facts),
      host: { ui: host?.ui, uris: host?.uris, todos: this.todos, subagents: this.subagents() },
      ...this.options.clientServices,
    };
  }
}
