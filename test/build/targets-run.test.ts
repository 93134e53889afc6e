/**
 * Shipped targets this machine can run, run, not only inspected: each answers
 * --version, get_state and a zoom call (sharp inside the executable) against
 * the scripted provider. linux-arm64 runs under qemu-user with Debian's arm64
 * loader and libraries (`qemu-user`, `libc6-arm64-cross`, installed by
 * .ci/run); linux-x64 is the suite's own binary. Not run here, and said so in
 * the README: linux-x64-musl (Bun's musl build links libstdc++ dynamically and
 * Debian ships no musl libstdc++ for Debian's musl loader to load),
 * windows-x64 (Bun's Windows build exits 53 without a word under Debian 12's
 * wine 8.0), darwin-*.
 */
import { describe, expect, test } from "bun:test";
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import sharp from "sharp";
import { TARGETS } from "../../build/targets.ts";
import { tempDir } from "../support/nova.ts";
import { promptAndSettle, scenario } from "../support/scenario.ts";
import { targetBinary } from "./dist.ts";

const SYSROOT = "/usr/aarch64-linux-gnu";
const emulated = [{ name: "linux-arm64", runner: ["qemu-aarch64", "-L", SYSROOT] }];

for (const { name, runner } of emulated) {
  const target = TARGETS.find((t) => t.name === name)!;
  const binary = targetBinary(target);
  // dist/<target>/ exists after `bun build.ts --all` (CI builds it before the tests)
  if (!existsSync(binary)) continue;
  describe(`${name} under ${runner[0]}`, () => {
    test("the emulator and the target's loader are installed", () => {
      expect(Bun.which(runner[0]!)).not.toBeNull();
      expect(existsSync(join(SYSROOT, "lib/ld-linux-aarch64.so.1"))).toBe(true);
    });

    test("answers --version", () => {
      const run = Bun.spawnSync([...runner, binary, "--version"], { stdout: "pipe", stderr: "pipe" });
      expect(run.stdout.toString()).toStartWith(`nova `);
      expect(run.stdout.toString()).toContain(`(${name}, `);
      expect(run.exitCode).toBe(0);
    });

    test("answers get_state and runs a zoom call with its embedded sharp", async () => {
      const cwd = tempDir("nova-emulated-");
      const raw = Buffer.alloc(120 * 80 * 3, 0x40);
      await sharp(raw, { raw: { width: 120, height: 80, channels: 3 } })
        .png()
        .toFile(join(cwd, "shot.png"));
      writeFileSync(join(cwd, "note.txt"), "x");
      const s = await scenario({ binary, runner, cwd });
      try {
        const state = await s.nova.request({ type: "get_state" });
        expect(state).toMatchObject({ success: true, data: { model: { id: "m1" }, isStreaming: false } });
        s.server.enqueue(s.f.toolCalls([{ id: "z1", name: "zoom", args: { path: "shot.png", x: 10, y: 20, width: 30, height: 20, scale: 3 } }]), s.f.text("zoomed"));
        const frames = await promptAndSettle(s.nova, "zoom in");
        const end = frames.find((f) => f.type === "tool_execution_end")!;
        expect(end.isError).toBe(false);
        expect(end.result.content[0].text).toContain("region 30×20 at (10, 20), 3× → 90×60 PNG");
        expect(end.result.content[1]).toMatchObject({ type: "image", mimeType: "image/png" });
      } finally {
        await s.close();
      }
    }, 120_000);
  });
}
