// Pi's RpcClient starts `node <cliPath> --mode rpc ...`. This file is that
// cliPath: it runs the nova command named in NOVA_COMPAT_COMMAND (a JSON argv
// array) with the client's arguments and stdio, and hands back its exit.
import { spawn } from "node:child_process";

const command = JSON.parse(process.env.NOVA_COMPAT_COMMAND ?? "null");
if (!Array.isArray(command) || command.length === 0) {
  process.stderr.write(`launcher: NOVA_COMPAT_COMMAND must be a JSON array of strings, got ${process.env.NOVA_COMPAT_COMMAND}\n`);
  process.exit(2);
}
const child = spawn(command[0], [...command.slice(1), ...process.argv.slice(2)], { stdio: "inherit" });
child.on("error", (error) => {
  process.stderr.write(`launcher: could not run ${command[0]}: ${error.message}\n`);
  process.exit(127);
});
for (const signal of ["SIGTERM", "SIGINT"]) process.on(signal, () => child.kill(signal));
child.on("exit", (code, signal) => process.exit(code ?? (signal === "SIGTERM" ? 143 : 1)));
