/**
 * The agent side of ACP: one handler per client method. Each ACP session is
 * its own core AgentSession (its own cwd and session file), so an editor can
 * keep several open in one process; the session id is the nova session id,
 * which is how session/load finds the file again in a later process.
 */
import { readdir, stat } from "node:fs/promises";
import { join } from "node:path";
import { AgentSession, type SessionOptions } from "../agent/session.ts";
import { CommandError } from "../agent/errors.ts";
import { runOptions } from "../agent/run-options.ts";
import { versionInfo } from "../cli/version.ts";
import { presets } from "../config/env-providers.ts";
import { listSessions, sessionDirFor, type SessionListing } from "../session/index.ts";
import { clientServices, type ClientCapabilities } from "./client-services.ts";
import type { Connection, Handlers } from "./connection.ts";
import { AUTH_REQUIRED, INVALID_PARAMS, INVALID_REQUEST, RESOURCE_NOT_FOUND, RpcError } from "./errors.ts";
import {
  authenticateParams,
  cancelParams,
  checkpointsParams,
  initializeParams,
  listSessionsParams,
  loadSessionParams,
  newSessionParams,
  parseParams,
  promptParams,
  revertParams,
  setConfigOptionParams,
  setModelParams,
  setModeParams,
} from "./params.ts";
import { AcpSession } from "./session.ts";
import { createMcp, type McpHub } from "../mcp/index.ts";
import { fromAcp, SpecError, type AcpServer } from "../mcp/specs.ts";
import { parseModelRef } from "../core/model-ref.ts";

export const PROTOCOL_VERSION = 1;

export class AcpAgent {
  private readonly sessions = new Map<string, AcpSession>();
  private capabilities: ClientCapabilities = {};
  /** the config's MCP servers for every session, plus each session's own (scoped by session id) */
  private readonly mcp: McpHub;

  /** `base` holds the command-line choices; each session gets its own cwd. */
  constructor(
    private readonly base: SessionOptions,
    private readonly conn: () => Connection,
    private readonly options: { noMcp: boolean },
  ) {
    const log = (text: string) => process.stderr.write(`nova: acp: ${text}\n`);
    this.mcp = createMcp(
      base.config,
      options.noMcp,
      {
        onStatus: (s, scope) => {
          log(`MCP server "${s.name}"${scope ? ` of session ${scope}` : ""}: ${s.status}${s.error ? ` (${s.error})` : ""}`);
          // its prompts become slash commands once it is connected
          for (const session of this.sessions.values()) {
            if (scope && scope !== session.id) continue;
            session.mcpStatus(s);
            if (s.status === "connected") session.advertiseCommands();
          }
        },
        onNotice: log,
      },
      base.sandbox,
    );
  }

  handlers(): Handlers {
    return {
      requests: {
        initialize: async (p) => this.initialize(p),
        authenticate: async (p) => this.authenticate(p),
        "session/new": (p) => this.newSession(p),
        "session/load": (p) => this.loadSession(p),
        "session/list": (p) => this.listSessions(p),
        "session/prompt": (p) => {
          const params = parseParams("session/prompt", promptParams, p);
          const run = params._meta?.["nova/run"];
          const session = this.session(params.sessionId);
          if (!run) return session.prompt(params.prompt);
          return runOptions(run).then(
            (options) => session.prompt(params.prompt, options),
            (error: Error) => {
              throw new RpcError(INVALID_PARAMS, `Invalid params for session/prompt: _meta["nova/run"].${error.message}`);
            },
          );
        },
        "session/set_model": async (p) => {
          const params = parseParams("session/set_model", setModelParams, p);
          this.setModel(this.session(params.sessionId), params.modelId);
          return {};
        },
        "session/set_config_option": async (p) => this.setConfigOption(p),
        "session/set_mode": async (p) => {
          const params = parseParams("session/set_mode", setModeParams, p);
          this.session(params.sessionId).setMode(params.modeId);
          return {};
        },
        // nova's extension methods: ACP names them with a leading underscore; the bare name is accepted too
        ...extension("nova/checkpoints", (p) => this.session(parseParams("_nova/checkpoints", checkpointsParams, p).sessionId).core.checkpoints.list()),
        ...extension("nova/revert", (p) => {
          const { sessionId, entryId, dryRun, paths, force } = parseParams("_nova/revert", revertParams, p);
          const session = this.session(sessionId);
          if (session.busy && !dryRun) throw new RpcError(INVALID_REQUEST, `Session ${sessionId} is running a prompt; cancel it or wait before reverting files`);
          return session.core.checkpoints.revert(entryId, { dryRun, paths, force }).catch((error: Error) => {
            throw new RpcError(INVALID_PARAMS, `Invalid params for _nova/revert: ${error.message}`);
          });
        }),
      },
      notifications: {
        "session/cancel": (p) => this.sessions.get(parseParams("session/cancel", cancelParams, p).sessionId)?.cancel(),
      },
    };
  }

  /** stdin closed or a signal came: stop every run, nobody can answer a question any more. */
  async shutdown(): Promise<void> {
    await Promise.all(
      [...this.sessions.values()].map(async (s) => {
        s.cancel();
        await s.core.abort();
      }),
    );
    await this.mcp.close();
  }

  private initialize(p: unknown) {
    const params = parseParams("initialize", initializeParams, p);
    this.capabilities = params.clientCapabilities ?? {};
    return {
      protocolVersion: PROTOCOL_VERSION,
      agentCapabilities: {
        loadSession: true,
        promptCapabilities: { image: true, audio: false, embeddedContext: true },
        mcpCapabilities: { http: !this.options.noMcp, sse: !this.options.noMcp },
        sessionCapabilities: { list: {} },
        _meta: { "nova/checkpoints": { version: 1 }, "nova/revert": { version: 1 } },
      },
      authMethods: this.authMethods(),
      agentInfo: { name: "nova", title: "nova", version: versionInfo().version },
    };
  }

  /** One method per provider that takes an API key, and one per provider the config adds. */
  private authMethods() {
    const configured = this.base.config.providers.filter((p) => !presets.some((preset) => preset.name === p.name));
    return [
      ...presets.map((preset) => ({ id: preset.name, name: preset.label, description: `An API key in ${preset.keyVar}, or stored with rpc mode's login` })),
      ...configured.map((p) => ({ id: p.name, name: p.name, description: "Configured in nova's config file" })),
    ];
  }

  /**
   * Keys come from the environment, auth.json or the config file, never from
   * the editor: a provider that has one is authenticated, one that lacks it
   * answers auth-required saying which variable to set.
   */
  private authenticate(p: unknown) {
    const { methodId } = parseParams("authenticate", authenticateParams, p);
    const known = this.authMethods().map((m) => m.id);
    if (!known.includes(methodId)) {
      throw new RpcError(INVALID_PARAMS, `Invalid params for authenticate: methodId ${JSON.stringify(methodId)} is not one of ${known.map((k) => JSON.stringify(k)).join(", ")}`);
    }
    if (this.base.config.providers.some((provider) => provider.name === methodId)) return {};
    const preset = presets.find((candidate) => candidate.name === methodId)!;
    throw new RpcError(
      AUTH_REQUIRED,
      `Authentication required: ${preset.label} has no API key; set ${preset.keyVar} in the environment nova starts with (or store one with rpc mode's login), then restart nova`,
    );
  }

  private async newSession(p: unknown) {
    const params = parseParams("session/new", newSessionParams, p);
    await requireDirectory("session/new", params.cwd);
    const servers = mcpSpecs("session/new", params.mcpServers);
    const session = this.open(params.cwd);
    await this.mcp.setServers("acp", servers, session.id);
    // on disk at once, so session/load finds a session that never had a prompt
    session.core.store.writeNow();
    this.sessions.set(session.id, session);
    setImmediate(() => session.opened());
    return { sessionId: session.id, configOptions: configOptions(session.core), modes: session.modes() };
  }

  private async loadSession(p: unknown) {
    const params = parseParams("session/load", loadSessionParams, p);
    await requireDirectory("session/load", params.cwd);
    if (this.sessions.get(params.sessionId)?.busy) {
      throw new RpcError(INVALID_REQUEST, `Session ${params.sessionId} is running a prompt in this process; cancel it before loading it again`);
    }
    const servers = mcpSpecs("session/load", params.mcpServers);
    const session = this.open(params.cwd, params.sessionId);
    try {
      await session.core.files.switchSession({ sessionId: params.sessionId });
    } catch (error) {
      if (error instanceof CommandError) throw new RpcError(RESOURCE_NOT_FOUND, `Resource not found: ${error.message}`);
      throw error;
    }
    this.sessions.get(params.sessionId)?.core.store.close();
    this.sessions.set(params.sessionId, session);
    await this.mcp.setServers("acp", servers, params.sessionId);
    session.replay(session.core.messages());
    setImmediate(() => session.opened());
    return { configOptions: configOptions(session.core), modes: session.modes() };
  }

  private async listSessions(p: unknown) {
    const params = parseParams("session/list", listSessionsParams, p);
    const { config, sessionDir } = this.base;
    let listings: SessionListing[];
    if (sessionDir) listings = await listSessions(sessionDir);
    else if (params.cwd) listings = await listSessions(sessionDirFor(config.novaHome, params.cwd));
    else {
      const root = join(config.novaHome, "sessions");
      const folders = await readdir(root, { withFileTypes: true }).catch(() => []);
      listings = (await Promise.all(folders.filter((f) => f.isDirectory()).map((f) => listSessions(join(root, f.name))))).flat();
      listings.sort((a, b) => b.modified.getTime() - a.modified.getTime());
    }
    if (params.cwd) listings = listings.filter((l) => l.cwd === params.cwd);
    return {
      sessions: listings.map((l) => ({
        sessionId: l.id,
        cwd: l.cwd,
        title: l.name ?? l.firstMessage?.slice(0, 120) ?? null,
        updatedAt: l.modified.toISOString(),
      })),
    };
  }

  private setConfigOption(p: unknown) {
    const params = parseParams("session/set_config_option", setConfigOptionParams, p);
    const session = this.session(params.sessionId);
    const value = String(params.value);
    if (params.configId === "model") this.setModel(session, value);
    else if (params.configId === "thought_level") {
      const levels = session.core.choice.thinkingLevels();
      if (!levels.includes(value as never)) {
        throw new RpcError(INVALID_PARAMS, `Invalid params for session/set_config_option: value ${JSON.stringify(value)} is not one of ${levels.join(", ")}`);
      }
      session.core.choice.setThinking(value as (typeof levels)[number]);
    } else {
      throw new RpcError(INVALID_PARAMS, `Invalid params for session/set_config_option: configId ${JSON.stringify(params.configId)} is not one of "model", "thought_level"`);
    }
    return { configOptions: configOptions(session.core) };
  }

  /** `provider/id`, as the model config option lists it. */
  private setModel(session: AcpSession, modelId: string): void {
    const { provider, id } = parseModelRef(modelId);
    try {
      session.core.choice.set(provider, id);
    } catch (error) {
      if (error instanceof CommandError) throw new RpcError(INVALID_PARAMS, `Invalid params: modelId ${JSON.stringify(modelId)}: ${error.message}`);
      throw error;
    }
    session.update({ sessionUpdate: "config_option_update", configOptions: configOptions(session.core) });
  }

  private session(id: string): AcpSession {
    const session = this.sessions.get(id);
    if (!session)
      throw new RpcError(RESOURCE_NOT_FOUND, `Resource not found: no session ${JSON.stringify(id)} in this process; create it with session/new or load it with session/load`);
    return session;
  }

  private open(cwd: string, id?: string): AcpSession {
    let acp: AcpSession | undefined;
    const services = clientServices(this.conn(), this.capabilities, {
      sessionId: () => acp?.id ?? id ?? "",
      onTerminal: (terminalId) => acp?.showTerminal(terminalId),
    });
    const scope = { id: id ?? "" };
    // the core asks for permission through this ACP session, directly
    const core = new AgentSession({
      ...this.base,
      cwd,
      clientServices: services,
      mcp: this.mcp.view(() => scope.id),
      host: { askPermission: (request, signal) => acp!.askPermission(request, signal) },
    });
    scope.id ||= core.store.sessionId;
    acp = new AcpSession(scope.id, core, this.conn());
    return acp;
  }
}

function configOptions(core: AgentSession) {
  const options: Record<string, unknown>[] = [];
  if (core.model) {
    options.push({
      id: "model",
      name: "Model",
      category: "model",
      type: "select",
      currentValue: `${core.model.provider}/${core.model.id}`,
      options: core.choice.all.map((m) => ({ value: `${m.provider}/${m.id}`, name: m.name || m.id })),
    });
  }
  const levels = core.choice.thinkingLevels();
  options.push({
    id: "thought_level",
    name: "Thinking",
    category: "thought_level",
    type: "select",
    currentValue: levels.includes(core.thinkingLevel) ? core.thinkingLevel : levels[0],
    options: levels.map((level) => ({ value: level, name: level })),
  });
  return options;
}

/** The editor's servers in nova's shape; a malformed one rejects the request, naming it. */
function mcpSpecs(method: string, servers: unknown[] | undefined) {
  try {
    return fromAcp((servers ?? []) as AcpServer[], process.env);
  } catch (error) {
    if (error instanceof SpecError) throw new RpcError(INVALID_PARAMS, `Invalid params for ${method}: ${error.message}`);
    throw error;
  }
}

/** An extension method under ACP's `_name` and the bare name. */
function extension(name: string, handler: (params: unknown) => Promise<unknown>): Record<string, (params: unknown) => Promise<unknown>> {
  return { [`_${name}`]: handler, [name]: handler };
}

async function requireDirectory(method: string, cwd: string): Promise<void> {
  const isDir = await stat(cwd).then(
    (s) => s.isDirectory(),
    () => false,
  );
  if (!isDir) throw new RpcError(INVALID_PARAMS, `Invalid params for ${method}: cwd ${JSON.stringify(cwd)} is not a directory`);
}
