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
  private readonly taskAllowed: boolean;

  constructor(
    private readonly options: ToolboxOptions,
    private readonly todos: TodoList,
    private readonly subagents: () => SubagentRunner | undefined,
  ) {
    const { config, host } = options;
    const sandbox = options.sandbox?.status.active ? options.sandbox : undefined;
    const all = [...builtinTools({ permissions: config.permissions, sandbox }), ...(host?.ui && host.ask ? [askTool] : []), todoTool];
    const only = options.toolFilter;
    this.own = selectTools(only ? all.filter((t) => only.includes(t.name)) : all, options.toolSelection);
    this.taskAllowed = selectTools([taskTool], options.toolSelection).length > 0 && (!only || only.includes("task"));
  }

  /** Built-in tools, then `task`, then the host's and the MCP servers'. */
  get all(): Tool[] {
    const host = this.options.host?.tools?.() ?? [];
    const mcp = this.options.mcp?.tools() ?? [];
    const extra = mcp.length === 0 ? host : [...host, ...mcp];
    const task = this.taskAllowed && this.subagents() ? [taskTool] : [];
    return extra.length + task.length === 0 ? this.own : [...this.own, ...task, ...extra];
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
