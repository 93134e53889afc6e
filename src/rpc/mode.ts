/**
 * `--mode rpc` / `rpc-ui`: ready frame, then commands until stdin closes.
 * stdin close lets the running turn and the queued prompts finish (so a piped
 * one-shot works) while nothing can answer a request any more; SIGTERM/SIGINT
 * abort at once. Either way every agent_start gets its agent_end before exit.
 */
import { Conversations } from "../agent/conversations.ts";
import type { SessionOptions } from "../agent/session.ts";
import { startIn, type StartSession } from "../agent/launch.ts";
import { Subagents } from "../agent/subagents.ts";
import { HostBridge } from "./host-bridge.ts";
import { createMcp } from "../mcp/index.ts";
import { HOST_GONE } from "../host/pending.ts";
import { uiSignals } from "./ui-signals.ts";
import { createDispatch } from "./handlers/index.ts";
import { HandlerContext } from "./handlers/context.ts";
import { toFrame } from "../wire/event-frame.ts";
import { RpcServer } from "./server.ts";
import { readyFrame } from "./ready.ts";
import { runMode } from "../wire/lifecycle.ts";
import type { FrameWriter } from "../wire/writer.ts";

export async function runRpcMode(
  sessionOptions: SessionOptions,
  writer: FrameWriter,
  options: { messageSnapshots: boolean; start?: StartSession; noMcp: boolean; ui: boolean },
): Promise<number> {
  const snapshots = options.messageSnapshots;
  const { config } = sessionOptions;
  const send = (frame: object) => writer.send(frame);
  const bridge = new HostBridge(send, process.env.NOVA_RPC_EMIT_TITLE === "1");
  const subagents = new Subagents(sessionOptions, config.agent);
  const mcp = createMcp(
    config,
    options.noMcp,
    {
      onStatus: (status) => send({ type: "mcp_server_status", ...status }),
      onNotice: (text) => {
        process.stderr.write(`nova: ${text}\n`);
        bridge.ui.notify(text, "warning");
      },
    },
    sessionOptions.sandbox,
  );
  const context = new HandlerContext(config, bridge, subagents, mcp);
  const conversations = new Conversations(
    {
      ...sessionOptions,
      mcp: mcp.view(),
      // rpc-ui: the host answers dialogs, so tools may use them and the model may `ask`;
      // plain rpc hosts still answer a permission prompt's confirm (permissions.prompt: ui)
      host: { ui: options.ui ? bridge.ui : undefined, ask: options.ui, confirmUi: bridge.ui, uris: bridge.uris, tools: () => context.hostTools },
      subagents: (parent) => subagents.runnerFor(parent),
    },
    config.session.backgroundLimit,
  );
  context.conversations = conversations;
  startIn(conversations.current, options.start, sessionOptions.model !== undefined);
  const signals = uiSignals(bridge.ui);
  conversations.onEvent((event) => {
    writer.send(toFrame(event, snapshots));
    signals(event);
    return writer.drained();
  });
  conversations.onBackgroundSettled((session, aborted) =>
    bridge.ui.notify(`Background conversation ${session.store.name ?? session.store.sessionId} ${aborted ? "was aborted" : "finished"}.`, "info"),
  );
  const server = new RpcServer(writer, createDispatch(context));

  return runMode(writer, {
    serve: async () => {
      writer.send(readyFrame());
      // connecting in the background: neither ready nor the first command waits for a server
      void mcp.setServers("config", config.mcpServers);
      // while the host reads `ready`: the system prompt's files and the local date's
      // time-zone data, so the first get_state or prompt does not wait for them
      setImmediate(() => void conversations.current.systemPrompt());
      await server.serve(Bun.stdin.stream());
    },
    windDown: async () => {
      bridge.close();
      conversations.closePermissions(HOST_GONE);
      await Promise.all([conversations.current.waitForIdle(), conversations.stopAll()]);
      await mcp.close();
    },
    stop: async () => {
      // background ones first, so their notices come before the attached run's agent_settled
      await conversations.stopAll(0);
      await conversations.current.abort();
      await mcp.close();
    },
  });
}
