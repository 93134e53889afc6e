// Baseline for relay cost: fetch the same SSE stream and write one small JSON
// line per delta: the least a relay can do, with no agent around it.
const url = process.argv[2]!;
const res = await fetch(url, { method: "POST", body: "{}" });
const decoder = new TextDecoder();
let buffer = "";
for await (const chunk of res.body!) {
  buffer += decoder.decode(chunk, { stream: true });
  let end: number;
  while ((end = buffer.indexOf("\n\n")) >= 0) {
    const event = buffer.slice(0, end);
    buffer = buffer.slice(end + 2);
    if (!event.startsWith("data: ") || event === "data: [DONE]") continue;
    const delta = JSON.parse(event.slice(6)).choices?.[0]?.delta?.content;
    if (delta) process.stdout.write(JSON.stringify({ type: "message_update", delta }) + "\n");
  }
}
process.stdout.write('{"type":"agent_end"}\n');

export {};
