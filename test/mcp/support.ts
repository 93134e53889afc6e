/** MCP servers for the process-level tests: the published ones from npm, run offline under Bun, and our small fixtures. */
import { join } from "node:path";
import { ROOT, type Frame, type Nova } from "../support/nova.ts";

const BUN = process.execPath;
const EVERYTHING = join(ROOT, "node_modules/@modelcontextprotocol/server-everything/dist/index.js");
const FILESYSTEM = join(ROOT, "node_modules/@modelcontextprotocol/server-filesystem/dist/index.js");
const FIXTURE = join(import.meta.dir, "fixture-server.ts");
const TEE = join(import.meta.dir, "tee-server.ts");

/** server-everything's stdio transport (`dist/index.js stdio`, its package's start:stdio). */
export const everythingStdio = { command: BUN, args: [EVERYTHING, "stdio"] };
/** server-everything over stdio behind tee-server.ts, which names each message's method on stderr */
export const everythingTeed = { command: BUN, args: [TEE, BUN, EVERYTHING, "stdio"] };
export const filesystem = (dir: string) => ({ command: BUN, args: [FILESYSTEM, dir] });
export const fixture = (mode: "exit-on-call" | "silent" | "changing") => ({ command: BUN, args: [FIXTURE, mode] });

/**
 * server-everything over HTTP (`dist/index.js streamableHttp` or `sse`, the
 * package's start scripts) on a free loopback port; it serves /mcp
 * (streamable HTTP) or /sse (the legacy transport).
 */
export async function everythingHttp(transport: "streamableHttp" | "sse"): Promise<{ url: string; stop(): Promise<void> }> {
  const probe = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => new Response() });
  const port = probe.port;
  await probe.stop(true);
  const proc = Bun.spawn([BUN, EVERYTHING, transport], { env: { ...process.env, PORT: String(port) }, stdout: "ignore", stderr: "pipe" });
  const decoder = new TextDecoder();
  let seen = "";
  for await (const chunk of proc.stderr) {
    seen += decoder.decode(chunk, { stream: true });
    if (/listening on port|is running on port/i.test(seen)) break;
  }
  void proc.stderr.pipeTo(new WritableStream()).catch(() => {});
  const path = transport === "sse" ? "/sse" : "/mcp";
  return {
    url: `http://127.0.0.1:${port}${path}`,
    async stop() {
      proc.kill();
      await proc.exited;
    },
  };
}

export function statusOf(nova: Nova, name: string, status: string, from = 0): Promise<Frame> {
  return nova.waitFor((f) => f.type === "mcp_server_status" && f.name === name && f.status === status, from);
}

/** The tool names the model was offered in the `n`th provider request (OpenAI chat shape). */
export function offered(body: any): string[] {
  return (body.tools ?? []).map((t: any) => t.function.name);
}
