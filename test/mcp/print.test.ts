/** The config's MCP servers in the one-shot front ends: `nova -p` and `--mode json`. */
import { afterEach, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { fixtures } from "../support/fixtures/index.ts";
import { tempDir } from "../support/nova.ts";
import { startProviderServer, type ProviderServer } from "../support/provider-server.ts";
import { testConfig } from "../support/scenario.ts";
import { runOnce } from "../print/run.ts";
import { everythingStdio } from "./support.ts";

const f = fixtures.openaiChat;
let server: ProviderServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

function config(home: string, url: string): string {
  const file = join(home, "config.yml");
  writeFileSync(file, JSON.stringify(testConfig(url, { extra: { mcpServers: { everything: everythingStdio } } })));
  return file;
}

test("-p: an MCP tool is called and a /mcp__ prompt is expanded before the model sees it", async () => {
  server = await startProviderServer();
  server.enqueue(f.toolCalls([{ id: "e1", name: "mcp__everything__echo", args: { message: "one shot" } }]), f.text("echoed"));
  const home = tempDir("nova-home-");
  const run = await runOnce(["-p", "--no-session", "--config", config(home, server.url), "/mcp__everything__args-prompt city=Oslo"], { home });
  expect(run.code).toBe(0);
  expect(run.stdout).toBe("echoed\n");
  const first = JSON.stringify(server.requests[0]!.body.messages);
  expect(first).toContain("Oslo");
  expect(first).not.toContain("/mcp__everything__args-prompt");
  expect(JSON.stringify(server.requests[1]!.body.messages)).toContain("Echo: one shot");
}, 60_000);

test("--mode json: mcp_server_status frames among the events; --no-mcp starts nothing", async () => {
  server = await startProviderServer();
  server.enqueue(f.text("a"), f.text("b"));
  const home = tempDir("nova-home-");
  const file = config(home, server.url);
  const json = await runOnce(["--mode", "json", "--no-session", "--config", file, "hi"], { home });
  const frames = json.stdout
    .trimEnd()
    .split("\n")
    .map((l) => JSON.parse(l));
  expect(frames[0].type).toBe("session");
  expect(frames.filter((fr) => fr.type === "mcp_server_status").map((fr) => fr.status)).toContain("connected");
  const off = await runOnce(["--mode", "json", "--no-session", "--no-mcp", "--config", file, "hi"], { home });
  const offFrames = off.stdout
    .trimEnd()
    .split("\n")
    .map((l) => JSON.parse(l));
  expect(offFrames.find((fr) => fr.type === "mcp_server_status")).toMatchObject({ status: "disabled", error: "--no-mcp" });
  expect((server.requests[1]!.body.tools ?? []).some((t: any) => t.function.name.startsWith("mcp__"))).toBe(false);
}, 60_000);
