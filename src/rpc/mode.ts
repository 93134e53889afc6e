/**
 * `--mode rpc` / `rpc-ui`: ready frame, then commands until stdin closes.
 * stdin close lets the running turn and the queued prompts finish (so a piped
 * one-shot works) while nothing can answer a request any more; SIGTERM/SIGINT
 * abort at once. Either way every agent_start gets its agent_end before exit.
 */
import type { Conversations } from "../agent/conversations.ts";
import { createDispatch } from "./handlers/index.ts";
import { HandlerContext } from "./handlers/context.ts";
import { toFrame } from "./events.ts";
import { RpcServer } from "./server.ts";
import type { FrameWriter } from "./writer.ts";

export async function runRpcMode(conversations: Conversations, writer: FrameWriter, options: { messageSnapshots: boolean }): Promise<number> {
  const snapshots = options.messageSnapshots;
  conversations.onEvent((event) => writer.send(toFrame(event, snapshots)), () => writer.drained());
  const server = new RpcServer(writer, createDispatch(new HandlerContext(conversations)));

  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    await Promise.all([conversations.current.abort(), conversations.stopAll(0)]);
    await finish(writer);
    process.exit(0);
  };
  process.on("SIGTERM", stop);
  process.on("SIGINT", stop);

  writer.send({ type: "ready" });
  await server.serve(Bun.stdin.stream());
  const session = conversations.current;
  session.denyPendingPermissions();
  await Promise.all([session.waitForIdle(), conversations.stopAll()]);
  await finish(writer);
  return 0;
}

async function finish(writer: FrameWriter): Promise<void> {
  await writer.flush();
}
