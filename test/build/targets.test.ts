/**
 * Every executable in dist/ is a real program for its platform: the format
 * header names the right CPU, the size is that of a Bun runtime plus nova and
 * libvips, sharp's files are those of its platform, and the .sha256 file
 * matches.
 */
import { describe, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { TARGETS, type Target, hostTarget } from "../../build/targets.ts";
import { BINARY } from "../support/targets.ts";
import { targetBinary } from "./dist.ts";

const MB = 1024 * 1024;

/** What the first bytes say: container format and CPU, plus the ELF interpreter (glibc or musl). */
function describeHeader(bytes: Buffer): { format: string; cpu: string; libc?: string } {
  if (bytes.readUInt32BE(0) === 0x7f454c46) {
    expect(bytes[4]).toBe(2); // 64-bit
    expect(bytes[5]).toBe(1); // little-endian
    const machine = bytes.readUInt16LE(18);
    const head = bytes.subarray(0, 4096).toString("latin1");
    return {
      format: "elf",
      cpu: machine === 62 ? "x64" : machine === 183 ? "arm64" : `e_machine ${machine}`,
      libc: head.includes("ld-musl") ? "musl" : head.includes("ld-linux") ? "glibc" : "none",
    };
  }
  if (bytes.readUInt32LE(0) === 0xfeedfacf) {
    const cputype = bytes.readUInt32LE(4);
    return { format: "macho", cpu: cputype === 0x01000007 ? "x64" : cputype === 0x0100000c ? "arm64" : `cputype ${cputype.toString(16)}` };
  }
  if (bytes.toString("latin1", 0, 2) === "MZ") {
    const pe = bytes.readUInt32LE(0x3c);
    expect(bytes.toString("latin1", pe, pe + 4)).toBe("PE\0\0");
    const machine = bytes.readUInt16LE(pe + 4);
    return { format: "pe", cpu: machine === 0x8664 ? "x64" : `machine ${machine.toString(16)}` };
  }
  return { format: "unknown", cpu: "unknown" };
}

function expected(target: Target): { format: string; cpu: string; libc?: string } {
  const format = target.os === "linux" ? "elf" : target.os === "darwin" ? "macho" : "pe";
  return { format, cpu: target.cpu, ...(target.libc ? { libc: target.libc } : {}) };
}

function checkExecutable(path: string, target: Target): void {
  const bytes = readFileSync(path);
  expect(describeHeader(bytes)).toEqual(expected(target));
  // the Bun runtime alone is 85-115 MB; sharp's addon and libvips (zstd-compressed) add about 7 MB
  expect(bytes.length).toBeGreaterThan(90 * MB);
  expect(bytes.length).toBeLessThan(200 * MB);
  // sharp's manifest for this platform only: its addon, and libvips (which win32 keeps in the addon package)
  const lib = target.os === "win32" ? `@img/sharp-${target.sharp}/lib/libvips-` : `@img/sharp-libvips-${target.sharp}/lib/libvips-`;
  expect(bytes.includes(`"@img/sharp-${target.sharp}/lib/sharp-${target.sharp}-`)).toBe(true);
  expect(bytes.includes(`"${lib}`)).toBe(true);
}

describe("executable format", () => {
  test(`dist/nova is a ${hostTarget().name} executable`, () => {
    checkExecutable(BINARY, hostTarget());
  });

  // Each target's file is checked when `bun run build --all` produced it (CI does; NOVA_BUILD_ALL=1 builds it here).
  for (const target of TARGETS.filter((t) => existsSync(targetBinary(t)))) {
    test(`dist/${target.name}/${target.exe}: header, size and checksum`, async () => {
      const path = targetBinary(target);
      checkExecutable(path, target);
      const digest = new Bun.CryptoHasher("sha256").update(await Bun.file(path).bytes()).digest("hex");
      expect(readFileSync(`${path}.sha256`, "utf8")).toBe(`${digest}  ${target.exe}\n`);
    });
  }
});
