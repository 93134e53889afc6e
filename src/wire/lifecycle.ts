/**
 * The life of a front-end mode, the same for rpc and acp: serve stdin until it
 * closes, then let the mode wind down; SIGTERM or SIGINT instead stops it at
 * once. Stopping happens once, everything written is flushed before the exit,
 * and the exit code is 0 either way.
 */
import type { FrameWriter } from "./writer.ts";

export interface ModeParts {
  /** reads stdin until it closes */
  serve(): Promise<void>;
  /** stdin closed: what still runs may finish (a piped one-shot prompt) */
  windDown(): Promise<void>;
  /** a signal arrived: abort everything now */
  stop(): Promise<void>;
}

export async function runMode(writer: FrameWriter, mode: ModeParts): Promise<number> {
  let stopping = false;
  const onSignal = async () => {
    if (stopping) return;
    stopping = true;
    await mode.stop();
    await writer.flush();
    process.exit(0);
  };
  process.on("SIGTERM", onSignal);
  process.on("SIGINT", onSignal);
  await mode.serve();
  await mode.windDown();
  await writer.flush();
  return 0;
}
