// Baseline for framing throughput: read stdin and count LF bytes, nothing else.
let lines = 0;
for await (const chunk of Bun.stdin.stream()) {
  for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) lines++;
}
process.stdout.write(`${lines}\n`);

export {};
