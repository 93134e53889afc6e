/**
 * examples/: the Python host (standard library only) and the Node host (with
 * nova-agent/client) each start nova against the scripted model in
 * examples/config.yml, answer the host tool call and the permission request,
 * and print the streamed answer; run from source and the compiled binary.
 */
import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { command, ROOT, tempDir } from "../support/nova.ts";
import { requireBinary, targets } from "../support/targets.ts";

const EXAMPLES = join(ROOT, "examples");
const ANSWER = "It is sunny in Paris, and the forecast cache is cleared.";

async function runHost(argv: string[], env: Record<string, string> = {}) {
  const home = tempDir("nova-example-");
  const proc = Bun.spawn(argv, {
    cwd: home,
    stdout: "pipe",
    stderr: "pipe",
    env: { PATH: process.env.PATH!, HOME: home, NOVA_HOME: home, OLLAMA_HOST: "http://127.0.0.1:1", ...env },
  });
  const [out, err, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  return { out, err, code };
}

describe.each(targets)("examples ($name)", ({ binary }) => {
  if (binary) test("the compiled executable exists", requireBinary);
  const nova = () => [...command({ binary }), "--no-session", "--config", join(EXAMPLES, "config.yml")];

  test("host.py answers the host tool and the permission request and prints the streamed answer", async () => {
    const { out, err, code } = await runHost(["python3", join(EXAMPLES, "host.py"), ...nova()]);
    expect(err).toStartWith("[nova ");
    expect(code).toBe(0);
    expect(out).toContain("[host tool get_weather(Paris)]");
    expect(out).toContain("[permission asked for: rm -rf ./forecast-cache: approved]");
    expect(out.trim().endsWith(ANSWER)).toBe(true);
  });

  test("host.mjs under node, with nova-agent/client, does the same", async () => {
    const dir = tempDir("nova-example-client-");
    const bundle = await Bun.build({ entrypoints: [join(ROOT, "src/client/index.ts")], target: "node", format: "esm", outdir: dir, naming: "client.mjs" });
    expect(bundle.success).toBe(true);
    const { out, err, code } = await runHost(["node", join(EXAMPLES, "host.mjs"), ...nova()], { NOVA_CLIENT: join(dir, "client.mjs") });
    expect(err).toStartWith("[nova ");
    expect(code).toBe(0);
    expect(out).toContain("[host tool get_weather(Paris)]");
    expect(out).toContain("[permission asked for: rm -rf ./forecast-cache: approved]");
    expect(out.trim().endsWith(ANSWER)).toBe(true);
  });
});
