/**
 * What a host author feeds `--print-schema` to: Ajv in strict mode compiles
 * it; json-schema-to-typescript generates TypeScript that type-checks and
 * tells frames apart; quicktype generates Python models that load real frames
 * of a session. (datamodel-code-generator is the usual Python tool, but only
 * the npm registry is reachable from this machine: quicktype stands in.)
 */
import { expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import Ajv2020 from "./generators/node_modules/ajv/dist/2020.js";
import { compile } from "./generators/node_modules/json-schema-to-typescript/dist/src/index.js";
import { FetchingJSONSchemaStore, InputData, JSONSchemaInput, quicktype } from "./generators/node_modules/quicktype-core/dist/index.js";
import { ROOT, command, startNova, tempDir } from "../support/nova.ts";

async function printedSchema(): Promise<Record<string, any>> {
  const proc = Bun.spawn([...command(), "--print-schema"], { stdout: "pipe" });
  const text = await new Response(proc.stdout).text();
  expect(await proc.exited).toBe(0);
  return JSON.parse(text);
}

/** The frames of one scripted run: a prompt through the demo script's tool calls, plus a few commands. */
async function sessionFrames(): Promise<Record<string, any>[]> {
  const cwd = tempDir();
  writeFileSync(join(cwd, "README.md"), "# demo\n\nTODO: more\n");
  const nova = await startNova({ args: ["--no-session", "--model", "scripted/demo"], cwd });
  try {
    await nova.request({ type: "prompt", message: "what is here?" });
    await nova.waitForType("agent_settled");
    await nova.request({ id: 2, type: "get_state" });
    await nova.request({ type: "get_messages" });
    await nova.request({ type: "set_steering_mode", mode: "bogus" });
    return [...nova.frames];
  } finally {
    await nova.stop();
  }
}

test("Ajv in strict mode compiles the document, and each union tells its members apart", async () => {
  const schema = await printedSchema();
  expect(schema.$schema).toBe("https://json-schema.org/draft/2020-12/schema");
  const ajv = new Ajv2020({ strict: true });
  const validate = ajv.compile(schema);
  expect(validate({ type: "agent_start" })).toBe(true);
  expect(validate({ type: "agent_start", extra: 1 })).toBe(false);
  for (const union of ["Command", "Reply", "Inbound", "Response", "Frame"]) expect(schema.$defs[union].oneOf.length).toBeGreaterThan(1);
  const commands = Object.keys(schema.$defs).filter((k) => k.endsWith("Command") && k !== "Command");
  expect(commands).toContain("GetStateCommand");
  expect(schema.$defs.Command.oneOf.length).toBe(commands.length);
  expect(validate({ id: 3, type: "get_state" })).toBe(true);
});

test("json-schema-to-typescript generates TypeScript that type-checks and narrows frames by type", async () => {
  const schema = await printedSchema();
  const dir = tempDir("nova-gen-ts-");
  const types = await compile(schema as any, "NovaLine", { bannerComment: "" });
  writeFileSync(join(dir, "nova.ts"), types);
  // a host's use of the generated types: narrowing a frame and reading typed response data
  writeFileSync(
    join(dir, "use.ts"),
    `import type { Frame, GetStateResponse, ReadyFrame, PromptCommand, HostToolResultReply } from "./nova.ts";
export function describe(frame: Frame): string {
  if (frame.type === "ready") return (frame as ReadyFrame).protocolVersion;
  if (frame.type === "response" && frame.success && frame.command === "get_state") return String((frame as GetStateResponse).data.isStreaming);
  return frame.type;
}
export const prompt: PromptCommand = { type: "prompt", id: 7, message: "hi" };
export const reply: HostToolResultReply = { type: "host_tool_result", id: "h1", result: { content: [] } };
// @ts-expect-error: a prompt needs its message
export const bad: PromptCommand = { type: "prompt" };
`,
  );
  const tsc = Bun.spawn(
    [
      join(ROOT, "node_modules/.bin/tsc"),
      "--noEmit",
      "--strict",
      "--allowImportingTsExtensions",
      "--target",
      "es2022",
      "--moduleResolution",
      "bundler",
      "--module",
      "esnext",
      "use.ts",
    ],
    {
      cwd: dir,
      stdout: "pipe",
    },
  );
  const out = await new Response(tsc.stdout).text();
  expect(out).toBe("");
  expect(await tsc.exited).toBe(0);
  expect(types).toContain("export type Frame =");
  expect(types).toContain("export interface GetStateData");
});

test("quicktype generates Python models that load every frame of a scripted session", async () => {
  const [schema, frames] = await Promise.all([printedSchema(), sessionFrames()]);
  const input = new JSONSchemaInput(new FetchingJSONSchemaStore());
  await input.addSource({ name: "NovaLine", schema: JSON.stringify(schema) });
  const data = new InputData();
  data.addInput(input);
  const result = await quicktype({ inputData: data, lang: "python", rendererOptions: { "python-version": "3.7" } });
  const dir = tempDir("nova-gen-py-");
  writeFileSync(join(dir, "nova_line.py"), result.lines.join("\n"));
  writeFileSync(join(dir, "frames.jsonl"), frames.map((f) => JSON.stringify(f)).join("\n"));
  writeFileSync(
    join(dir, "load.py"),
    `import json, nova_line
count = 0
types = set()
for line in open("frames.jsonl"):
    frame = nova_line.nova_line_from_dict(json.loads(line))
    types.add(frame.type.value)
    count += 1
print(count, " ".join(sorted(types)))
`,
  );
  const python = Bun.spawn(["python3", "load.py"], { cwd: dir, stdout: "pipe", stderr: "pipe" });
  const [out, err] = await Promise.all([new Response(python.stdout).text(), new Response(python.stderr).text()]);
  expect(err).toBe("");
  expect(await python.exited).toBe(0);
  const [count, kinds] = out.trim().split(" ", 2);
  expect(Number(count)).toBe(frames.length);
  expect(out).toContain("tool_execution_end");
  expect(kinds).toBe("agent_end");
}, 60000);
