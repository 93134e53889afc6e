/**
 * What embedding sharp costs: spawn → ready and size of the compiled nova with
 * sharp and libvips inside (libvips zstd-compressed, as shipped) against the
 * same build with the image tools left out, and the first image-tool call of a
 * process (a zoom, tool_execution_start → tool_execution_end) of the shipped
 * build against a build embedding libvips uncompressed: on a machine that has
 * never run nova (empty cache: unpack + write + load) and on one that has
 * (the cache is checked by SHA-256 and loaded). Alternating, medians.
 */
import { mkdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import sharp from "sharp";
import { buildExecutable, installedSharp } from "../build.ts";
import { hostTarget } from "../build/targets.ts";
import { fixtures } from "../test/support/fixtures/index.ts";
import { startProviderServer } from "../test/support/provider-server.ts";
import { env, lineReader, median, ratio, TMP } from "./lib.ts";

async function spawnToReady(binary: string): Promise<number> {
  const start = performance.now();
  const proc = Bun.spawn([binary, "--no-session"], { stdin: "pipe", stdout: "pipe", stderr: "ignore", env: env() });
  await lineReader(proc.stdout)((l) => l.includes('"ready"'));
  const elapsed = performance.now() - start;
  proc.stdin.end();
  await proc.exited;
  return elapsed;
}

type Server = Awaited<ReturnType<typeof startProviderServer>>;

/** One process, one zoom: milliseconds from tool_execution_start to tool_execution_end. */
async function firstZoom(binary: string, server: Server, config: string, cwd: string, home: string): Promise<number> {
  server.enqueue(
    fixtures.openaiChat.toolCalls([{ id: "z1", name: "zoom", args: { path: "shot.png", x: 0, y: 0, width: 60, height: 40, scale: 2 } }]),
    fixtures.openaiChat.text("ok"),
  );
  const proc = Bun.spawn([binary, "--no-session", "--config", config], { cwd, stdin: "pipe", stdout: "pipe", stderr: "ignore", env: { ...env(), HOME: home, NOVA_HOME: home } });
  const until = lineReader(proc.stdout);
  await until((l) => l.includes('"ready"'));
  proc.stdin.write(`${JSON.stringify({ id: "p", type: "prompt", message: "zoom" })}\n`);
  proc.stdin.flush();
  await until((l) => l.includes('"tool_execution_start"'));
  const start = performance.now();
  let failed = false;
  await until((l) => {
    if (!l.includes('"tool_execution_end"')) return false;
    failed = l.includes('"isError":true');
    return true;
  });
  const ms = performance.now() - start;
  await until((l) => l.includes('"agent_end"'));
  proc.stdin.end();
  await proc.exited;
  if (failed) throw new Error(`zoom failed in ${binary}`);
  return ms;
}

export async function benchImageStartup(runs = 25, zoomRuns = 7) {
  const target = hostTarget();
  const withImages = await buildExecutable({ target, outfile: join(TMP, "nova-images"), sharp: installedSharp(target) });
  const uncompressed = await buildExecutable({ target, outfile: join(TMP, "nova-images-uncompressed"), sharp: { ...installedSharp(target), uncompressed: true } });
  const without = await buildExecutable({ target, outfile: join(TMP, "nova-no-images"), sharp: { images: false } });
  const samples = { with: [] as number[], without: [] as number[] };
  await spawnToReady(withImages);
  await spawnToReady(without);
  for (let i = 0; i < runs; i++) {
    samples.with.push(await spawnToReady(withImages));
    samples.without.push(await spawnToReady(without));
  }

  const server = await startProviderServer();
  const dir = join(TMP, "image-bench");
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const config = join(dir, "config.yml");
  writeFileSync(config, JSON.stringify({ defaultModel: "b/m", providers: { b: { api: "openai-chat", baseUrl: `${server.url}/v1`, models: [{ id: "m" }] } } }));
  await sharp(Buffer.alloc(120 * 80 * 3, 0x40), { raw: { width: 120, height: 80, channels: 3 } })
    .png()
    .toFile(join(dir, "shot.png"));
  const zoom = { coldZstd: [] as number[], coldPlain: [] as number[], warmZstd: [] as number[], warmPlain: [] as number[] };
  for (let i = 0; i < zoomRuns; i++) {
    for (const [binary, cold, warm] of [
      [withImages, zoom.coldZstd, zoom.warmZstd],
      [uncompressed, zoom.coldPlain, zoom.warmPlain],
    ] as const) {
      const home = join(dir, `home-${i}-${cold === zoom.coldZstd ? "z" : "p"}`);
      mkdirSync(home, { recursive: true });
      cold.push(await firstZoom(binary, server, config, dir, home));
      warm.push(await firstZoom(binary, server, config, dir, home));
    }
  }
  await server.close();
  const mb = (path: string) => (statSync(path).size / 1024 / 1024).toFixed(1);
  const ms = (v: number[]) => median(v).toFixed(1);
  return {
    runs,
    "spawn→ready with sharp ms": ms(samples.with),
    "spawn→ready without image tools ms": ms(samples.without),
    "spawn→ready ratio (limit 1.30)": ratio(median(samples.with), median(samples.without)),
    "size with sharp (libvips zstd) MB": mb(withImages),
    "size with sharp uncompressed MB": mb(uncompressed),
    "size without image tools MB": mb(without),
    [`first zoom, empty cache, zstd / uncompressed ms (median of ${zoomRuns})`]: `${ms(zoom.coldZstd)} / ${ms(zoom.coldPlain)} (${ratio(median(zoom.coldZstd), median(zoom.coldPlain))})`,
    [`first zoom, cache filled, zstd / uncompressed ms (median of ${zoomRuns})`]: `${ms(zoom.warmZstd)} / ${ms(zoom.warmPlain)} (${ratio(median(zoom.warmZstd), median(zoom.warmPlain))})`,
  };
}
