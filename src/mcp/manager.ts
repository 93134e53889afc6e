/**
 * The MCP servers of one nova process, from the config file, the RPC host
 * (`set_mcp_servers`) and ACP sessions. Servers connect in the background;
 * a session asks its view for tools before each model request, and the view
 * waits (a bounded time) for servers still connecting and for tool lists a
 * `list_changed` notification made stale.
 */
import type { McpServerSpec } from "../config/schema.ts";
import type { ImageContent } from "../core/messages.ts";
import type { McpTool } from "./types.ts";
import { qualifiedName, uniqueNames } from "./names.ts";
import { promptArguments, promptCommand, promptMessage, slashCommand, type PromptCommand } from "./prompts.ts";
import type { StdioWrap } from "./connect.ts";
import { McpServer, type RemotePrompt, type ServerSource, type ServerState } from "./server.ts";
import { mcpTool, type McpRules } from "./tool.ts";

export type { McpServerSpec, ServerSource, ServerState };

export interface ServerStatus {
  name: string;
  source: ServerSource;
  status: ServerState;
  tools: string[];
  error?: string;
}

export interface McpSettings {
  /** how long a run waits for servers still connecting */
  waitMs: number;
  connectTimeoutMs: number;
  callTimeoutMs: number;
}

export interface McpManagerOptions {
  settings: McpSettings;
  rules: McpRules;
  /** --no-mcp: every server is listed as disabled and none is started */
  disabled: boolean;
  /** a server's status or tools changed; `scope` is the ACP session it belongs to */
  onStatus(status: ServerStatus, scope: string | undefined): void;
  /** something the user should hear about once (a run going on without a server) */
  onNotice(text: string, scope: string | undefined): void;
  /** one line for nova's stderr */
  log(line: string): void;
  /** stdio servers run in the OS sandbox (sandbox.mcp: true while the sandbox is on) */
  wrap?: StdioWrap;
}

/** What a session sees: the servers of the process plus those of its own scope (an ACP session). */
export interface McpTools {
  tools(): McpTool[];
  /** waits for list refreshes and, up to the configured limit, for servers still connecting */
  beforeRequest(signal: AbortSignal): Promise<void>;
  servers(): ServerStatus[];
  commands(): PromptCommand[];
  /** a `/mcp__server__prompt args` message expanded through prompts/get; undefined when it names no prompt */
  expand(text: string): Promise<{ text: string; images: ImageContent[] } | undefined>;
}

interface Built {
  version: number;
  tools: McpTool[];
  toolNames: Map<McpServer, string[]>;
  prompts: { name: string; server: McpServer; prompt: RemotePrompt }[];
}

export class McpManager {
  private servers: McpServer[] = [];
  private version = 0;
  /** the last status each server was reported with, so a refresh that changed nothing says nothing */
  private readonly reported = new WeakMap<McpServer, string>();

  constructor(private readonly options: McpManagerOptions) {}

  /**
   * Replaces the servers one source gave (for one scope): a server whose spec
   * is unchanged keeps running, the others are closed and started anew.
   * Answers the names, in order.
   */
  setServers(source: ServerSource, specs: Record<string, McpServerSpec>, scope?: string): string[] {
    const previous = this.servers.filter((s) => s.source === source && s.scope === scope);
    const kept: McpServer[] = [];
    for (const [name, spec] of Object.entries(specs)) {
      const same = previous.find((s) => s.name === name && JSON.stringify(s.spec) === JSON.stringify(spec));
      kept.push(same ?? this.create(name, source, scope, spec));
    }
    for (const old of previous) if (!kept.includes(old)) void old.close();
    this.servers = [...this.servers.filter((s) => !previous.includes(s)), ...kept];
    this.version++;
    for (const server of kept) if (!previous.includes(server)) server.begin();
    return Object.keys(specs);
  }

  /** Closes a scope's servers (an ACP session that is gone). */
  dropScope(scope: string): void {
    for (const source of ["acp", "rpc", "config"] as const) this.setServers(source, {}, scope);
  }

  /** A session's view; `scope` may be read late (an ACP session learns its id after its core is made). */
  view(scope?: string | (() => string)): McpTools {
    let built: Built | undefined;
    const scopeId = () => (typeof scope === "function" ? scope() : scope);
    const visible = () => this.servers.filter((s) => s.scope === undefined || s.scope === scopeId());
    const build = (): Built => {
      if (built?.version === this.version) return built;
      const servers = visible();
      const usable = servers.filter((s) => s.state !== "disabled");
      const toolPairs = usable.flatMap((server) => server.tools.map((tool) => ({ server, tool })));
      const toolNames = uniqueNames(toolPairs.map((p) => qualifiedName(p.server.name, p.tool.name)));
      const names = new Map<McpServer, string[]>();
      const tools = toolPairs.map((p, i) => {
        names.set(p.server, [...(names.get(p.server) ?? []), toolNames[i]!]);
        return mcpTool(p.server, p.tool, toolNames[i]!, this.options.rules);
      });
      const promptPairs = usable.flatMap((server) => server.prompts.map((prompt) => ({ server, prompt })));
      const promptNames = uniqueNames(promptPairs.map((p) => qualifiedName(p.server.name, p.prompt.name)));
      built = { version: this.version, tools, toolNames: names, prompts: promptPairs.map((p, i) => ({ ...p, name: promptNames[i]! })) };
      return built;
    };
    return {
      tools: () => build().tools,
      beforeRequest: (signal) => this.beforeRequest(visible(), signal, scopeId()),
      servers: () => {
        const { toolNames } = build();
        return visible().map((s) => this.status(s, toolNames.get(s) ?? []));
      },
      commands: () => build().prompts.map((p) => promptCommand(p.name, p.prompt)),
      expand: async (text) => {
        const command = slashCommand(text);
        // a prompt sent right after start may name a server still connecting
        if (command?.name.startsWith("mcp__")) await this.beforeRequest(visible(), new AbortController().signal, scopeId());
        const entry = command && build().prompts.find((p) => p.name === command.name);
        if (!command || !entry) return undefined;
        const result = await entry.server.getPrompt(entry.prompt.name, promptArguments(entry.prompt, command.rest));
        return promptMessage(result.messages as { role: string; content: { type: string } }[]);
      },
    };
  }

  /** Stops every server (nova is exiting). */
  async close(): Promise<void> {
    const servers = this.servers;
    this.servers = [];
    await Promise.all(servers.map((s) => s.close()));
  }

  private create(name: string, source: ServerSource, scope: string | undefined, spec: McpServerSpec): McpServer {
    return new McpServer(
      name,
      source,
      scope,
      spec,
      {
        connectTimeoutMs: this.options.settings.connectTimeoutMs,
        callTimeoutMs: this.options.settings.callTimeoutMs,
        changed: (server) => {
          this.version++;
          if (!this.servers.includes(server)) return;
          const status = this.view(server.scope)
            .servers()
            .find((s) => s.name === server.name && s.source === server.source);
          const said = status && JSON.stringify(status);
          if (!status || said === this.reported.get(server)) return;
          this.reported.set(server, said!);
          this.options.onStatus(status, server.scope);
        },
        stderr: (server, line) => this.options.log(`[mcp ${server.name}] ${line}`),
        wrap: this.options.wrap,
      },
      this.options.disabled ? "--no-mcp" : undefined,
    );
  }

  private status(server: McpServer, tools: string[]): ServerStatus {
    return { name: server.name, source: server.source, status: server.state, tools, ...(server.error ? { error: server.error } : {}) };
  }

  private async beforeRequest(servers: McpServer[], signal: AbortSignal, scope: string | undefined): Promise<void> {
    for (const server of servers) server.revive();
    await Promise.all(servers.map((s) => s.refreshed()));
    const waiting = servers.filter((s) => s.state === "connecting" && !s.waitExpired);
    if (waiting.length === 0) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let onAbort: (() => void) | undefined;
    await Promise.race([
      Promise.all(waiting.map((s) => s.settled())),
      new Promise<void>((resolve) => {
        timer = setTimeout(resolve, this.options.settings.waitMs);
        onAbort = resolve;
        signal.addEventListener("abort", onAbort, { once: true });
      }),
    ]);
    clearTimeout(timer);
    if (onAbort) signal.removeEventListener("abort", onAbort);
    if (signal.aborted) return;
    for (const server of waiting) {
      if (server.state !== "connecting") continue;
      server.waitExpired = true;
      this.options.onNotice(`MCP server "${server.name}" is still connecting after ${this.options.settings.waitMs / 1000} s; going on without its tools`, scope);
    }
  }
}
