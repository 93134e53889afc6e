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
import type { ToolServices } from "./loop.ts";

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
  /** how a flagged command asks the user for permission */
  askPermission?: PermissionAsker;
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
}

export class Toolbox {
  private readonly own: Tool[];

  constructor(
    private readonly options: ToolboxOptions,
    private readonly todos: TodoList,
    private readonly subagents: () => SubagentRunner | undefined,
  ) {
    const { config, host } = options;
    const sandbox = options.sandbox?.status.active ? options.sandbox : undefined;
    const all = [...builtinTools({ permissions: config.permissions, sandbox }), ...(host?.ui && host.ask ? [askTool] : []), todoTool];
    const only = options.toolFilter;
    this.own = only ? all.filter((t) => only.includes(t.name)) : all;
  }

  /** Built-in tools, then `task`, then the host's. */
  get all(): Tool[] {
    const extra = this.options.host?.tools?.() ?? [];
    const only = this.options.toolFilter;
    const task = this.subagents() && (!only || only.includes("task")) ? [taskTool] : [];
    return extra.length + task.length === 0 ? this.own : [...this.own, ...task, ...extra];
  }

  /** What every tool call gets besides its arguments. */
  services(askPermission: PermissionAsker): ToolServices {
    const { host } = this.options;
    return {
      cwd: this.options.cwd,
      askPermission,
      hasUI: host?.ui !== undefined,
      host: { ui: host?.ui, uris: host?.uris, todos: this.todos, subagents: this.subagents() },
      ...this.options.clientServices,
    };
  }
}
