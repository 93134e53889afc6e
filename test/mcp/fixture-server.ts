/**
 * Small MCP servers for what the published ones cannot show, built with the
 * SDK's server side over stdio:
 *   exit-on-call  exits (code 3) as soon as any tool is called
 *   silent        reads stdin but never answers, not even initialize
 *   changing      `add_tool` registers `added_tool` (a tools/list_changed);
 *                 `wait` runs until cancelled and says so on stderr
 */
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { z } from "zod";

const mode = process.argv[2];

if (mode === "silent") {
  process.stderr.write("silent server up\n");
  process.stdin.on("data", () => {});
} else {
  const server = new McpServer({ name: `fixture-${mode}`, version: "1.0.0" }, { capabilities: { tools: { listChanged: true } } });
  if (mode === "exit-on-call") {
    server.registerTool("boom", { description: "Exits the server", inputSchema: {} }, async () => {
      process.stderr.write("boom: exiting\n");
      process.exit(3);
    });
  } else {
    server.registerTool("add_tool", { description: "Adds added_tool", inputSchema: {} }, async () => {
      server.registerTool("added_tool", { description: "Appeared after list_changed", inputSchema: { n: z.number() } }, async ({ n }) => ({
        content: [{ type: "text", text: `added ${n}` }],
      }));
      return { content: [{ type: "text", text: "added" }] };
    });
    server.registerTool("wait", { description: "Waits until cancelled", inputSchema: {}, annotations: { readOnlyHint: true } }, async (_args, extra) => {
      process.stderr.write("wait: started\n");
      await new Promise<void>((resolve) => extra.signal.addEventListener("abort", () => resolve(), { once: true }));
      process.stderr.write("wait: cancelled by the client\n");
      return { content: [{ type: "text", text: "cancelled" }] };
    });
  }
  await server.connect(new StdioServerTransport());
}
