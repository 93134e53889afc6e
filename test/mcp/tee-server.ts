/**
 * Runs an MCP stdio server unchanged and says on stderr (which nova prefixes
 * with the server's name) the method of every JSON-RPC message passing each
 * way, numbered per method and direction (`tee nova->server tools/list #2`),
 * so a test can see what a real server sent and what nova asked after it.
 *   bun tee-server.ts <command> [args...]
 */
const [command, ...args] = process.argv.slice(2);
const child = Bun.spawn([command!, ...args], { stdin: "pipe", stdout: "pipe", stderr: "inherit" });

const seen = new Map<string, number>();

function tap(direction: string) {
  let pending = "";
  const decoder = new TextDecoder();
  return (chunk: Uint8Array) => {
    pending += decoder.decode(chunk, { stream: true });
    let end = pending.indexOf("\n");
    while (end >= 0) {
      const line = pending.slice(0, end);
      pending = pending.slice(end + 1);
      const method = (JSON.parse(line) as { method?: string }).method;
      if (method) {
        const key = `${direction} ${method}`;
        const n = (seen.get(key) ?? 0) + 1;
        seen.set(key, n);
        process.stderr.write(`tee ${key} #${n}\n`);
      }
      end = pending.indexOf("\n");
    }
  };
}

const toServer = tap("nova->server");
const toNova = tap("server->nova");
void (async () => {
  for await (const chunk of Bun.stdin.stream()) {
    toServer(chunk);
    child.stdin.write(chunk);
  }
  child.stdin.end();
})();
for await (const chunk of child.stdout) {
  toNova(chunk);
  process.stdout.write(chunk);
}
process.exit(await child.exited);
export {};
