/**
 * The face of the MCP client for front ends. Nothing of the client (the
 * manager, the SDK) is loaded until a server is configured or handed over:
 * until then every view answers "no tools, no servers" at no cost.
 */
import type { McpManager, McpManagerOptions, McpServerSpec, McpTools, ServerSource, ServerStatus } from "./manager.ts";

export type { McpServerSpec, McpTools, ServerSource, ServerStatus };

type Options = Omit<McpManagerOptions, "log">;

export class McpHub {
  private manager: McpManager | undefined;
  private loading: Promise<McpManager> | undefined;

  constructor(private readonly options: Options) {}

  /** Replaces one source's servers (for one scope); answers their names. */
  async setServers(source: ServerSource, specs: Record<string, McpServerSpec>, scope?: string): Promise<string[]> {
    if (!this.manager && !this.loading && Object.keys(specs).length === 0) return [];
    const manager = await this.load();
    return manager.setServers(source, specs, scope);
  }

  /** A session's view (see McpManager.view); it stays empty while no server was ever given. */
  view(scope?: string | (() => string)): McpTools {
    let real: McpTools | undefined;
    const current = () => (this.manager ? (real ??= this.manager.view(scope)) : undefined);
    return {
      tools: () => current()?.tools() ?? [],
      beforeRequest: async (signal) => {
        if (this.loading) await this.loading;
        await current()?.beforeRequest(signal);
      },
      servers: () => current()?.servers() ?? [],
      commands: () => current()?.commands() ?? [],
      expand: async (text) => {
        if (this.loading) await this.loading;
        return current()?.expand(text);
      },
    };
  }

  async close(): Promise<void> {
    await (this.manager ?? (await this.loading))?.close();
  }

  private load(): Promise<McpManager> {
    this.loading ??= import("./manager.ts").then(({ McpManager }) => {
      this.manager = new McpManager({ ...this.options, log: (line) => process.stderr.write(`nova: ${line}\n`) });
      return this.manager;
    });
    return this.loading;
  }
}

/** The hub of a front end, from the config's MCP settings. */
export function createMcp(
  config: { mcp: McpManagerOptions["settings"]; mcpPermissions: McpManagerOptions["rules"] },
  disabled: boolean,
  events: Pick<Options, "onStatus" | "onNotice">,
): McpHub {
  return new McpHub({ settings: config.mcp, rules: config.mcpPermissions, disabled, ...events });
}
