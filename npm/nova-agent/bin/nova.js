#!/usr/bin/env node
// Runs the nova executable from the platform package that npm (or bun) installed
// beside this one, chosen through optionalDependencies and their os/cpu/libc
// fields, passing arguments, stdio, signals and the exit status through.
"use strict";
const { spawn } = require("node:child_process");

function isMusl() {
  if (process.platform !== "linux") return false;
  try {
    return !process.report.getReport().header.glibcVersionRuntime;
  } catch {
    return false;
  }
}

const os = process.platform === "win32" ? "windows" : process.platform;
const target = `${os}-${process.arch}${isMusl() ? "-musl" : ""}`;
const pkg = `@nova-agent/${target}`;
let binary;
try {
  binary = require.resolve(`${pkg}/bin/${process.platform === "win32" ? "nova.exe" : "nova"}`);
} catch {
  process.stderr.write(
    `nova: no executable for ${target}: ${pkg} is not installed. It is an optional dependency of nova-agent; ` +
      "reinstall without --omit=optional / --no-optional. Platforms: linux-x64, linux-x64-musl, linux-arm64, darwin-x64, darwin-arm64, windows-x64.\n",
  );
  process.exit(1);
}

const child = spawn(binary, process.argv.slice(2), { stdio: "inherit", windowsHide: true });
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
