/**
 * `--mode rpc` / `rpc-ui`: ready frame, then commands until stdin closes.
 * stdin close lets the running turn and the queued prompts finish (so a piped
 * one-shot works) while nothing can answer a request any more; SIGTERM/SIGINT
 * abort at once. Either way every agent_start gets its agent_end before exit.
 */
import type { AgentSession } from "../agent/session.ts";
import { createDispatch } from "./handlers/index.ts";
import { toFrame } from "./events.ts";
import { RpcServer } from "./server.ts";
import type { FrameWriter } from "./writer.ts";

export async function runRpcMode(session: AgentSession, writer: FrameWriter, options: { messageSnapshots: boolean }): Promise<number> {
  const snapshots = options.messageSnapshots;
  session.subscribe((event) => writer.send(toFrame(event, snapshots)));
  session.setFlowControl(() => writer.drained());
  const server = new RpcServer(writer, createDispatch({ session }));

  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    await session.abort();
    await finish(writer);
    process.exit(0);
  };
  process.on("SIGTERM", stop);
  process.on("SIGINT", stop);

  writer.send({ type: "ready" });
  await server.serve(Bun.stdin.stream());
  session.denyPendingPermissions();
  await session.waitForIdle();
  await finish(writer);
  return 0;
}

async function finish(writer: FrameWriter): Promise<void> {
  await writer.flush();
}
