// Baseline for startup: a minimal compiled Bun program that prints one line,
// then echoes the first stdin line back (so "spawn → first response" compares too).
process.stdout.write('{"type":"ready"}\n');
const reader = Bun.stdin.stream().getReader();
const { value } = await reader.read();
if (value) process.stdout.write('{"type":"response","command":"get_state","success":true}\n');
process.exit(0);

export {};
