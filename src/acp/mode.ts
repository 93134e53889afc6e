/**
 * `--mode acp`: the Agent Client Protocol on stdin/stdout for editors (Zed,
 * JetBrains). No ready frame: the client speaks first with initialize. When
 * stdin closes (the editor is gone) or a signal comes, every run is cancelled,
 * so open prompts answer `cancelled`, and nova exits once that is written.
 */
import type { SessionOptions } from "../agent/session.ts";
import type { FrameWriter } from "../wire/writer.ts";
import { AcpAgent } from "./agent.ts";
import { Connection } from "./connection.ts";

export async function runAcpMode(base: SessionOptions, writer: FrameWriter, options: { noMcp: boolean }): Promise<number> {
  const agent: AcpAgent = new AcpAgent(base, () => connection, options);
  const connection: Connection = new Connection(writer, agent.handlers());
  const finish = async () => {
    await agent.shutdown();
    await connection.idle();
    await writer.flush();
  };

  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    await finish();
    process.exit(0);
  };
  process.on("SIGTERM", stop);
  process.on("SIGINT", stop);

  await connection.serve(Bun.stdin.stream());
  await finish();
  return 0;
}
