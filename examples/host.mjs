#!/usr/bin/env node
// A nova host in Node with nova-agent/client: offers one host tool
// (get_weather), sends a prompt, answers the tool call and the permission
// request, and prints the streamed answer.
// Usage: node host.mjs [nova command line...] (default: `nova --config config.yml` from this folder).
// Outside this repository, import from "nova-agent/client" (the npm package).
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const { NovaClient } = await import(process.env.NOVA_CLIENT ?? "nova-agent/client");
const commandLine = process.argv.length > 2 ? process.argv.slice(2) : ["nova", "--config", join(here, "config.yml")];

const nova = await NovaClient.start({
  binary: commandLine,
  hostTool: (call) => {
    console.log(`\n[host tool ${call.toolName}(${call.arguments.city})]`);
    return { content: [{ type: "text", text: `sunny, 24 C in ${call.arguments.city}` }] };
  },
  permission: (request) => {
    console.log(`\n[permission asked for: ${request.command}: approved]`);
    return true;
  },
});
console.error(`[nova ${nova.ready.version}, protocol ${nova.ready.protocolVersion}]`);
await nova.request({
  type: "set_host_tools",
  tools: [{ name: "get_weather", description: "The weather in a city, from the host", parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] } }],
});
const events = nova.events();
await nova.request({ type: "prompt", message: "What is the weather in Paris?" });
for await (const event of events) {
  if (event.type === "message_update" && event.assistantMessageEvent.type === "text_delta") process.stdout.write(event.assistantMessageEvent.delta);
  if (event.type === "agent_settled") break;
}
console.log();
process.exit(await nova.close());
