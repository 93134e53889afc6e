// Baseline for session loading: read a JSONL file and JSON.parse every line.
const text = await Bun.file(process.argv[2]!).text();
let n = 0;
for (const line of text.split("\n")) if (line) JSON.parse(line), n++;
const rss = Number(/VmRSS:\s+(\d+)/.exec(await Bun.file("/proc/self/status").text())![1]);
process.stdout.write(JSON.stringify({ entries: n, rssKb: rss }) + "\n");

export {};
