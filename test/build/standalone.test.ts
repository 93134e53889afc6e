/**
 * The compiled nova copied alone into an empty folder (no node_modules near
 * it): the image tools run on the sharp and libvips embedded in it, and when
 * those cannot be loaded everything else still works.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { copyFileSync, readFileSync, readdirSync, realpathSync, rmSync, statSync, writeFileSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import sharp from "sharp";
import { tempDir } from "../support/nova.ts";
import { promptAndSettle, scenario, type Scenario } from "../support/scenario.ts";
import { BINARY, requireBinary } from "../support/targets.ts";

let binary: string;
let alone: string;
const open: Scenario[] = [];

beforeAll(() => {
  requireBinary();
  alone = tempDir("nova-alone-");
  binary = join(alone, "nova");
  copyFileSync(BINARY, binary);
});
afterAll(async () => {
  await Promise.all(open.map((s) => s.close()));
  // a 130 MB copy per run would fill the disk
  rmSync(alone, { recursive: true, force: true });
});

async function zoomSession(env: Record<string, string> = {}): Promise<{ s: Scenario; end: Record<string, any> }> {
  const cwd = tempDir("nova-alone-cwd-");
  const raw = Buffer.alloc(120 * 80 * 3, 0x40);
  await sharp(raw, { raw: { width: 120, height: 80, channels: 3 } })
    .png()
    .toFile(join(cwd, "shot.png"));
  const s = await scenario({ binary, cwd, env });
  open.push(s);
  s.server.enqueue(s.f.toolCalls([{ id: "z1", name: "zoom", args: { path: "shot.png", x: 10, y: 20, width: 30, height: 20, scale: 3 } }]), s.f.text("zoomed"));
  const frames = await promptAndSettle(s.nova, "zoom in");
  return { s, end: frames.find((f) => f.type === "tool_execution_end")! };
}

describe("the compiled binary alone in an empty folder", () => {
  test("zoom returns a PNG of the requested size, decoded by sharp here", async () => {
    expect(readdirSync(join(binary, ".."))).toEqual(["nova"]);
    const { s, end } = await zoomSession();
    expect(end.isError).toBe(false);
    const image = end.result.content[1];
    expect(image.mimeType).toBe("image/png");
    const meta = await sharp(Buffer.from(image.data, "base64")).metadata();
    expect([meta.width, meta.height]).toEqual([90, 60]);
    // the native files went to nova's private cache under NOVA_HOME
    const cache = readdirSync(join(s.nova.home, "cache"));
    expect(cache).toHaveLength(1);
    expect(cache[0]).toMatch(/^sharp-0\.35\.\d+-linux-x64-[0-9a-f]{12}$/);
  });

  test("two novas starting together on an empty cache both load it, and a damaged file is replaced", async () => {
    const home = tempDir("nova-shared-home-");
    const both = await Promise.all([zoomSession({ NOVA_HOME: home }), zoomSession({ NOVA_HOME: home })]);
    for (const { end } of both) expect(end.isError).toBe(false);
    const [key] = readdirSync(join(home, "cache"));
    const lib = join(home, "cache", key!, "@img", `sharp-libvips-${process.platform}-${process.arch}`, "lib");
    // only the renamed files remain: no temp file of either process is left behind
    const files = readdirSync(lib);
    expect(files.filter((f) => f.endsWith(".tmp"))).toEqual([]);
    const libvips = join(lib, files.find((f) => f.startsWith("libvips-cpp"))!);
    const size = statSync(libvips).size;
    writeFileSync(libvips, Buffer.alloc(size, 0));
    const { end } = await zoomSession({ NOVA_HOME: home });
    expect(end.isError).toBe(false);
    expect(readFileSync(libvips).subarray(0, 4)).toEqual(Buffer.from([0x7f, 0x45, 0x4c, 0x46]));
    // libvips is embedded zstd-compressed: what was unpacked is byte for byte the installed library
    const installed = join(dirname(require.resolve(`@img/sharp-libvips-${process.platform}-${process.arch}/package.json`)), "lib", basename(libvips));
    expect(Bun.hash(readFileSync(libvips))).toBe(Bun.hash(readFileSync(realpathSync(installed))));
    expect(statSync(binary).size).toBeLessThan(statSync(installed).size + 110 * 1024 * 1024);
  });

  test("when no cache folder is usable nova still runs and zoom fails naming the platform", async () => {
    const blocked = join(tempDir("nova-blocked-"), "a-file");
    writeFileSync(blocked, "not a folder");
    const { s, end } = await zoomSession({ NOVA_HOME: blocked, TMPDIR: blocked });
    expect(end.isError).toBe(true);
    expect(end.result.content[0].text).toContain(`image support (sharp/libvips) is unavailable on ${process.platform}-${process.arch}`);
    const state = await s.nova.request({ type: "get_state" });
    expect(state.success).toBe(true);
  });
});
