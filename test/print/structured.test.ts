/** -p with --output-schema, --max-turns and --max-budget-usd, from source, against a scripted model. */
import { describe, expect, test, setDefaultTimeout } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { tempDir } from "../support/nova.ts";
import { runOnce, scriptedConfig } from "./run.ts";

setDefaultTimeout(30_000);

const schema = { type: "object", properties: { answer: { type: "integer" } }, required: ["answer"], additionalProperties: false };

function schemaFile(home: string, value: unknown): string {
  const file = join(home, "schema.json");
  writeFileSync(file, typeof value === "string" ? value : JSON.stringify(value));
  return file;
}

describe("nova -p --output-schema", () => {
  test("stdout holds the answer as one JSON line once it meets the schema", async () => {
    const home = tempDir("nova-home-");
    scriptedConfig(
      home,
      `- match: "^count$"
  reply:
    - tool: structured_output
      arguments: {answer: "three"}
- match: "does not match the schema"
  reply:
    - tool: structured_output
      arguments: {answer: 3}
`,
    );
    const run = await runOnce(["-p", "-q", "--output-schema", schemaFile(home, schema), "count"], { home });
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(run.stdout).toBe('{"answer":3}\n');
  });

  test("an answer that never meets the schema exits 1 with the validator's errors", async () => {
    const home = tempDir("nova-home-");
    scriptedConfig(home, `- reply: [{text: "no JSON here"}]\n`, "structuredOutput: {maxAttempts: 2}\n");
    const run = await runOnce(["-p", "-q", "--output-schema", schemaFile(home, schema), "count"], { home });
    expect(run.code).toBe(1);
    expect(run.stdout).toBe("");
    expect(run.stderr).toContain("after 2 attempts");
  });

  test.each([
    ['{"type": "objekt"}', "objekt"],
    ["{not json", "not JSON"],
  ])("a bad schema file %s is a usage error naming the problem", async (text, words) => {
    const home = tempDir("nova-home-");
    scriptedConfig(home, `- reply: [{text: "unused"}]\n`);
    const run = await runOnce(["-p", "--output-schema", schemaFile(home, text), "x"], { home });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("--output-schema");
    expect(run.stderr).toContain(words);
  });
});

describe("nova -p budgets", () => {
  test("--max-turns stops before the next model request and exits 1", async () => {
    const home = tempDir("nova-home-");
    // every answer calls ls again: only the limit ends the run
    scriptedConfig(home, `- reply:\n    - tool: ls\n`);
    const run = await runOnce(["-p", "-q", "--max-turns", "2", "go"], { home });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("max_turns");
  });

  test("--max-budget-usd stops once the prompt's cost reaches it", async () => {
    const home = tempDir("nova-home-");
    scriptedConfig(home, `- reply:\n    - usage: {input: 1000, output: 0}\n    - tool: ls\n`, 'costs: {"ci/replay": {input: 10, output: 0}}\n');
    const run = await runOnce(["-p", "-q", "--max-budget-usd", "0.02", "go"], { home });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("max_cost");
  });

  test.each([
    ["--max-turns", "0"],
    ["--max-turns", "2.5"],
    ["--max-budget-usd", "-1"],
    ["--max-budget-usd", "lots"],
  ])("%s %s is a usage error", async (flag, value) => {
    const run = await runOnce(["-p", flag, value, "x"]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(flag);
    expect(run.stderr).toContain(value);
  });

  test("the budget flags belong to -p and json", async () => {
    const run = await runOnce(["--max-turns", "3"]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("applies to -p");
  });
});
