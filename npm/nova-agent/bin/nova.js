#!/usr/bin/env node
// Runs the nova executable from the platform package that npm (or bun) installed
// beside this one, chosen through optionalDependencies and their os/cpu/libc
// fields, passing arguments, stdio, signals and the exit status through.
// Kept to what it needs: every millisecond here is added to each start (bench/launcher.ts).
"use strict";
const os = process.platform === "win32" ? "windows" : process.platform;
const exe = process.platform === "win32" ? "nova.exe" : "nova";
// npm installs only the package whose os/cpu/libc fit, so trying both Linux flavours
// is cheaper than asking which libc this is (process.report costs ~15 ms)
const candidates = os === "linux" ? [`linux-${process.arch}`, `linux-${process.arch}-musl`] : [`${os}-${process.arch}`];
let binary;
for (const target of candidates) {
  try {
    binary = require.resolve(`@nova-agent/${target}/bin/${exe}`);
    break;
  } catch {}
}
if (!binary) {
  process.stderr.write(
    `nova: no executable for ${candidates.join(" or ")}: @nova-agent/${candidates[0]} is not installed. It is an optional dependency of nova-agent; ` +
      "reinstall without --omit=optional / --no-optional. Platforms: linux-x64, linux-x64-musl, linux-arm64, darwin-x64, darwin-arm64, windows-x64.\n",
  );
  process.exit(1);
}

const args = process.argv.slice(2);
// Node 22.15+: become nova (same pid, signals and exit status without relaying)
if (typeof process.execve === "function" && process.platform !== "win32") process.execve(binary, [binary, ...args], process.env);

const child = require("node:child_process").spawn(binary, args, { stdio: "inherit", windowsHide: true });
const forward = (signal) => child.kill(signal);
for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"]) process.on(signal, forward);
child.on("error", (err) => {
  process.stderr.write(`nova: could not start ${binary}: ${err.message}\n`);
  process.exit(1);
});
child.on("exit", (code, signal) => {
  if (signal) {
    for (const s of ["SIGINT", "SIGTERM", "SIGHUP"]) process.off(s, forward);
    process.kill(process.pid, signal);
  } else process.exit(code ?? 1);
});
