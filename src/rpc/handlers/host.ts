/** Host tools, host URI schemes, todos, sub-agents, login, and the host's replies to nova's requests. */
import type { CommandOf, ReplyOf } from "../commands.ts";
import type { HandlerContext } from "./context.ts";
import { hostTool } from "../../tools/host-tools.ts";
import { login, loginProviders } from "../../agent/login.ts";
import { CommandError } from "../../agent/errors.ts";
import { todoWidgetLines } from "../ui-signals.ts";
import { parseSpecs } from "../../mcp/specs.ts";
import { mcpSecrets } from "../../config/load.ts";
import { schemaProblem } from "../json-bounds.ts";

export function hostHandlers(ctx: HandlerContext) {
  return {
    set_host_tools: (c: CommandOf<"set_host_tools">) => {
      const builtin = new Set(ctx.session.tools.filter((t) => !ctx.hostTools.some((h) => h === t)).map((t) => t.name));
      const seen = new Set<string>();
      c.tools.forEach((tool, i) => {
        if (builtin.has(tool.name)) throw new CommandError(`tools[${i}].name "${tool.name}" is a built-in tool; choose another name`);
        if (seen.has(tool.name)) throw new CommandError(`tools[${i}].name "${tool.name}" appears twice`);
        const problem = schemaProblem(tool.parameters, i);
        if (problem) throw new CommandError(problem);
        seen.add(tool.name);
      });
      ctx.hostTools = c.tools.map((definition) => hostTool(definition, ctx.bridge.callTool));
      return { toolNames: c.tools.map((t) => t.name) };
    },
    set_mcp_servers: async (c: CommandOf<"set_mcp_servers">) => {
      const specs = parseSpecs(c.servers, "servers", ctx.config.env);
      ctx.config.secrets.push(...Object.values(specs).flatMap(mcpSecrets));
      return { serverNames: await ctx.mcp.setServers("rpc", specs) };
    },
    get_mcp_servers: () => ({ servers: ctx.session.options.mcp?.servers() ?? [] }),
    set_host_uri_schemes: (c: CommandOf<"set_host_uri_schemes">) => ({ schemes: ctx.bridge.setSchemes(c.schemes) }),
    set_todos: (c: CommandOf<"set_todos">) => {
      const phases = ctx.session.setTodos(c.phases);
      ctx.bridge.ui.setWidget("todos", todoWidgetLines(phases));
      return { phases };
    },
    set_subagent_subscription: (c: CommandOf<"set_subagent_subscription">) => {
      ctx.subagents.level = c.level;
      return { level: c.level };
    },
    get_subagents: () => ctx.subagents.list(),
    get_subagent_messages: (c: CommandOf<"get_subagent_messages">) => ctx.subagents.messages(c),
    get_login_providers: () => loginProviders(ctx.config),
    login: async (c: CommandOf<"login">) => {
      const result = await login(ctx.config, c.providerId, ctx.bridge.ui);
      const session = ctx.session;
      if (!session.model && result.models.length > 0) session.model = session.findModel(result.providerId, result.models[0]);
      return result;
    },
  };
}

export function replyHandlers(ctx: HandlerContext) {
  return {
    extension_ui_response: (r: ReplyOf<"extension_ui_response">) => ctx.bridge.onUiResponse(r),
    host_tool_update: (r: ReplyOf<"host_tool_update">) => ctx.bridge.onToolUpdate(r),
    host_tool_result: (r: ReplyOf<"host_tool_result">) => ctx.bridge.onToolResult(r),
    host_uri_result: (r: ReplyOf<"host_uri_result">) => ctx.bridge.onUriResult(r),
  };
}
