/** The MCP SDK inside the compiled executable: nova copied alone into an empty folder connects to real servers over stdio and HTTP. */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { copyFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { tempDir } from "../support/nova.ts";
import { promptAndSettle, scenario, type Scenario } from "../support/scenario.ts";
import { BINARY, requireBinary } from "../support/targets.ts";
import { everythingHttp, everythingStdio, statusOf } from "./support.ts";

let binary: string;
const open: Scenario[] = [];

beforeAll(() => {
  requireBinary();
  binary = join(tempDir("nova-alone-mcp-"), "nova");
  copyFileSync(BINARY, binary);
});
afterAll(async () => {
  await Promise.all(open.map((s) => s.close()));
});

test("the compiled nova, with no node_modules near it, calls tools of a stdio and a streamable HTTP server", async () => {
  expect(readdirSync(join(binary, ".."))).toEqual(["nova"]);
  const http = await everythingHttp("streamableHttp");
  try {
    const s = await scenario({ binary, extra: { mcpServers: { local: everythingStdio, web: { url: http.url } } } });
    open.push(s);
    await statusOf(s.nova, "local", "connected");
    await statusOf(s.nova, "web", "connected");
    s.server.enqueue(
      s.f.toolCalls([
        { id: "b1", name: "mcp__local__echo", args: { message: "from the binary" } },
        { id: "b2", name: "mcp__web__echo", args: { message: "over http" } },
      ]),
      s.f.text("done"),
    );
    const frames = await promptAndSettle(s.nova, "echo");
    const ends = frames.filter((f) => f.type === "tool_execution_end");
    expect(ends.map((e) => e.result.content[0].text).sort()).toEqual(["Echo: from the binary", "Echo: over http"]);
  } finally {
    await http.stop();
  }
}, 60_000);
