/**
 * Secrets stay out of the model's reach, through the real process: bash (and
 * the user's own bash) runs without the provider keys and the variables a
 * config `${VAR}` read into a secret field, unless `permissions.env.pass`
 * names them; their values are redacted from tool output before it reaches
 * events, the session file or the next provider request, whatever their
 * length; a config error never prints a secret field's value.
 */
import { afterEach, expect, test } from "bun:test";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { command, startNova, tempDir, type Nova } from "../support/nova.ts";
import { startProviderServer, type ProviderServer } from "../support/provider-server.ts";
import { testConfig } from "../support/scenario.ts";
import { fixtures } from "../support/fixtures/index.ts";

const f = fixtures.openaiChat;
const SHORT_KEY = "k9Z";
const env = {
  OPENAI_API_KEY: "sk-env-openai-key-0123456789abcdef",
  MY_SECRET_KEY: SHORT_KEY,
  HDR_SECRET: "hdr-secret-value",
  COPY_OF_KEY: "hdr-secret-value",
  PASSED_KEY: "passed-secret-value",
  HARMLESS: "visible-value",
};
const secretValues = [env.OPENAI_API_KEY, env.HDR_SECRET, env.PASSED_KEY];

let server: ProviderServer | undefined;
let nova: Nova | undefined;
afterEach(async () => {
  await nova?.stop();
  await server?.close();
  nova = server = undefined;
});

async function start() {
  server = await startProviderServer();
  const base = testConfig(server.url);
  const config = {
    ...base,
    providers: { test: { ...base.providers.test, apiKey: "${MY_SECRET_KEY}", headers: { "x-api-token": "${HDR_SECRET}", "x-passed": "${PASSED_KEY}" } } },
    permissions: { env: { pass: ["PASSED_KEY"] } },
  };
  nova = await startNova({ cwd: tempDir(), config, env });
  return nova;
}

// the secrets are assembled by the shell, so only the output holds them (the command the model wrote does not)
const BASH = `env | sort; echo "[\${PASSED_KEY:+passed}] literal=$(printf 'k%sZ' 9) hdr=$(printf 'hdr-secret-%s' value)"`;

test("bash gets no provider key or ${VAR} secret; what it prints is redacted in events, the session file and the next request", async () => {
  const n = await start();
  server!.enqueue(f.toolCalls([{ id: "e1", name: "bash", args: { command: BASH } }]), f.text("ok"));
  const from = n.frames.length;
  await n.request({ type: "prompt", message: "show env" });
  await n.waitFor((fr) => fr.type === "agent_settled", from);
  const end = n.frames.slice(from).find((fr) => fr.type === "tool_execution_end")!;
  const text: string = end.result.content[0].text;
  expect(text).toContain("HARMLESS=visible-value");
  for (const name of ["OPENAI_API_KEY", "MY_SECRET_KEY", "HDR_SECRET", "COPY_OF_KEY"]) expect(text).not.toContain(`${name}=`);
  // passed on purpose, and still redacted in what the model reads
  expect(text).toContain("PASSED_KEY=[redacted]");
  expect(text).toContain("[passed] literal=[redacted] hdr=[redacted]");

  const updates = JSON.stringify(n.frames.slice(from).filter((fr) => fr.type === "tool_execution_update"));
  const nextRequest = JSON.stringify(server!.requests[1]!.body);
  const files = readdirSync(n.home, { recursive: true, encoding: "utf8" }).filter((p) => p.endsWith(".jsonl"));
  const sessionText = readFileSync(join(n.home, files[0]!), "utf8");
  for (const where of [JSON.stringify(end), updates, nextRequest, sessionText]) {
    for (const secret of secretValues) expect(where).not.toContain(secret);
    expect(where).not.toContain(`literal=${SHORT_KEY}`);
  }
  expect(nextRequest).toContain("literal=[redacted]");
});

test("the user's own bash command gets the same environment and redaction", async () => {
  const n = await start();
  const r = await n.request({ type: "bash", command: BASH });
  expect(r.data.output).toContain("HARMLESS=visible-value");
  expect(r.data.output).not.toContain("OPENAI_API_KEY=");
  expect(r.data.output).toContain("literal=[redacted]");
  for (const secret of secretValues) expect(r.data.output).not.toContain(secret);
});

async function configError(providerFields: object): Promise<{ code: number; stderr: string }> {
  const home = tempDir("nova-home-");
  const file = join(home, "config.json");
  writeFileSync(file, JSON.stringify({ providers: { p: { api: "openai-chat", baseUrl: "http://127.0.0.1:9", models: [{ id: "m" }], ...providerFields } } }));
  const proc = Bun.spawn([...command(), "--mode", "rpc", "--config", file], {
    env: { PATH: process.env.PATH!, HOME: home, NOVA_HOME: home },
    stdout: "pipe",
    stderr: "pipe",
    stdin: "pipe",
  });
  const [stderr, code] = await Promise.all([new Response(proc.stderr).text(), proc.exited]);
  return { code, stderr };
}

test("a config error in a secret field names the field and the type, never the value", async () => {
  const numeric = await configError({ apiKey: 7734551 });
  expect(numeric.code).toBe(2);
  expect(numeric.stderr).toContain("providers.p.apiKey must be a string, got a number (not shown: the field holds a secret)");
  expect(numeric.stderr).not.toContain("7734551");
  const header = await configError({ headers: { authorization: 99887766 } });
  expect(header.code).toBe(2);
  expect(header.stderr).toContain("providers.p.headers.authorization");
  expect(header.stderr).not.toContain("99887766");
});
