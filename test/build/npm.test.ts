/**
 * The packed npm tarballs install into an empty project the way a user's
 * `npm install` would, and the launcher runs the platform's executable.
 * Runs on the tarballs `bun build.ts --pack` left in dist/npm/ (CI packs
 * before the tests; NOVA_BUILD_ALL=1 packs here).
 */
import { describe, expect, test } from "bun:test";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { basename, join } from "node:path";
import pkg from "../../package.json" with { type: "json" };
import { hostTarget } from "../../build/targets.ts";
import { ROOT, startNova, tempDir } from "../support/nova.ts";
import { tarballs } from "./dist.ts";

const found = tarballs();

function run(cmd: string[], cwd: string): string {
  const result = Bun.spawnSync(cmd, { cwd, stdout: "pipe", stderr: "pipe", env: { ...process.env, npm_config_loglevel: "error" } });
  if (!result.success) throw new Error(`${cmd.join(" ")} failed (exit ${result.exitCode}): ${result.stderr.toString()}`);
  return result.stdout.toString();
}

if (found.length > 0) {
  describe("npm tarballs", () => {
    test("nova-*.tgz install into an empty project; only this platform's executable comes along; nova and bunx run it", async () => {
      expect(found.map((f) => basename(f))).toContain(`nova-agent-${pkg.version}.tgz`);
      expect(found.map((f) => basename(f))).toContain(`nova-agent-${hostTarget().name}-${pkg.version}.tgz`);
      const project = tempDir("nova-npm-");
      writeFileSync(join(project, "package.json"), JSON.stringify({ name: "nova-npm-test", private: true }));
      // optional, as nova-agent itself lists them: npm then leaves out the other platforms' packages
      run(["npm", "install", "--save-optional", "--no-audit", "--no-fund", ...found], project);
      const installed = join(project, "node_modules", "@nova-agent");
      expect(existsSync(join(installed, hostTarget().name))).toBe(true);
      // every package says its license and carries the text
      for (const dir of [join(project, "node_modules", "nova-agent"), join(installed, hostTarget().name)]) {
        expect(JSON.parse(readFileSync(join(dir, "package.json"), "utf8")).license).toBe("MIT");
        expect(readFileSync(join(dir, "LICENSE"), "utf8")).toStartWith("MIT License");
      }
      expect(existsSync(join(installed, "darwin-arm64"))).toBe(false);

      const line = `nova ${pkg.version} (${hostTarget().name}, `;
      expect(run([join(project, "node_modules", ".bin", "nova"), "--version"], project)).toStartWith(line);
      expect(run(["bunx", "nova-agent", "--version"], project)).toStartWith(line);

      // the launcher passes stdin/stdout through: a real session answers
      const nova = await startNova({ binary: join(project, "node_modules", ".bin", "nova-agent"), args: ["--no-session"] });
      const state = await nova.request({ type: "get_state" });
      expect(state.success).toBe(true);
      expect(await nova.stop()).toBe(0);
    }, 120_000);

    test("nova-agent/client from the installed package: node starts the platform's executable through it, and a TS host type-checks against its types", async () => {
      const project = tempDir("nova-npm-client-");
      writeFileSync(join(project, "package.json"), JSON.stringify({ name: "nova-client-test", private: true, type: "module" }));
      run(["npm", "install", "--save-optional", "--no-audit", "--no-fund", ...found], project);
      writeFileSync(
        join(project, "host.mjs"),
        `import { NovaClient } from "nova-agent/client";
const nova = await NovaClient.start({ args: ["--no-session", "--model", "scripted/demo"], permission: () => true });
const state = await nova.request({ type: "get_state" });
const events = await nova.promptAndWait("what is here?");
const text = await nova.request({ type: "get_last_assistant_text" });
console.log(JSON.stringify({ protocol: nova.ready.protocolVersion, model: state.model.id, last: events.at(-1).type, text: text.text.length > 0 }));
process.exit(await nova.close());
`,
      );
      const out = run(["node", "host.mjs"], project);
      expect(JSON.parse(out)).toEqual({ protocol: expect.stringMatching(/^\d+\.\d+$/), model: "demo", last: "agent_settled", text: true });

      writeFileSync(
        join(project, "host.ts"),
        `import { NovaClient, type ResultMap } from "nova-agent/client";
export async function run(): Promise<string> {
  const nova = await NovaClient.start({ binary: "nova", hostTool: (call) => ({ content: [{ type: "text", text: call.toolName }] }) });
  const state: ResultMap["get_state"] = await nova.request({ type: "get_state" });
  const models = await nova.request({ type: "get_available_models" });
  // @ts-expect-error: set_model needs its modelId
  await nova.request({ type: "set_model", provider: "x" });
  for await (const event of nova.events()) if (event.type === "agent_end") return event.messages.length + models.models[0]!.id;
  return state.sessionId;
}
`,
      );
      const tsc = Bun.spawnSync(
        [
          join(ROOT, "node_modules/.bin/tsc"),
          "--noEmit",
          "--strict",
          "--noUncheckedIndexedAccess",
          "--module",
          "nodenext",
          "--moduleResolution",
          "nodenext",
          "--target",
          "es2022",
          "--types",
          "node",
          "--typeRoots",
          join(ROOT, "node_modules/@types"),
          "host.ts",
        ],
        {
          cwd: project,
          stdout: "pipe",
        },
      );
      expect(tsc.stdout.toString()).toBe("");
      expect(tsc.exitCode).toBe(0);
    }, 120_000);
  });
}
