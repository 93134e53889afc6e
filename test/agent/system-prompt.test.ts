import { expect, test } from "bun:test";
import { buildSystemPrompt, type SystemPromptInput } from "../../src/agent/system-prompt.ts";

function input(overrides: Partial<SystemPromptInput> = {}): SystemPromptInput {
  return {
    cwd: "/work/project",
    date: new Date(2026, 2, 7, 12, 0, 0),
    tools: [
      { name: "read", description: "Read a file.\nLonger details the list leaves out." },
      { name: "bash", description: "Run a shell command." },
    ],
    contextFiles: [
      { path: "/home/u/.nova/AGENTS.md", content: "HOME-RULE: be brief" },
      { path: "/work/project/AGENTS.md", content: "PROJECT-RULE: use tabs" },
    ],
    skills: [{ name: "pdf", description: "Fill PDF forms", path: "/home/u/.nova/skills/pdf/SKILL.md", source: "user" }],
    ...overrides,
  };
}

test("lists each tool on one line", () => {
  const prompt = buildSystemPrompt(input());
  expect(prompt).toContain("- read: Read a file.\n- bash: Run a shell command.");
  expect(prompt).not.toContain("Longer details");
});

test("states the cwd and the date as YYYY-MM-DD", () => {
  const prompt = buildSystemPrompt(input());
  expect(prompt).toContain("Working directory: /work/project");
  expect(prompt).toContain("Today's date: 2026-03-07");
});

test("context files appear under their paths, outermost first", () => {
  const prompt = buildSystemPrompt(input());
  const home = prompt.indexOf("## /home/u/.nova/AGENTS.md\n\nHOME-RULE: be brief");
  const project = prompt.indexOf("## /work/project/AGENTS.md\n\nPROJECT-RULE: use tabs");
  expect(home).toBeGreaterThan(-1);
  expect(project).toBeGreaterThan(home);
});

test("skills are listed with description and path, with the read-first instruction", () => {
  const prompt = buildSystemPrompt(input());
  expect(prompt).toContain("- pdf: Fill PDF forms\n  /home/u/.nova/skills/pdf/SKILL.md");
  expect(prompt).toMatch(/read its SKILL\.md/);
  expect(prompt.indexOf("# Skills")).toBeGreaterThan(prompt.indexOf("PROJECT-RULE"));
});

test("no skills, no context files: no empty sections", () => {
  const prompt = buildSystemPrompt(input({ skills: [], contextFiles: [] }));
  expect(prompt).not.toContain("# Skills");
  expect(prompt).not.toContain("# Project instructions");
});

test("the base prompt names nova and covers the working rules", () => {
  const prompt = buildSystemPrompt(input());
  expect(prompt.startsWith("You are nova")).toBe(true);
  expect(prompt).toMatch(/Read a file before you edit it/);
  expect(prompt).toMatch(/permission/);
  expect(prompt).toMatch(/secrets/);
});

test("custom replaces the base prompt but keeps tools, context and skills", () => {
  const prompt = buildSystemPrompt(input({ custom: "You are a reviewer." }));
  expect(prompt.startsWith("You are a reviewer.\n\n# Tools")).toBe(true);
  expect(prompt).not.toContain("You are nova");
  expect(prompt).toContain("PROJECT-RULE");
  expect(prompt).toContain("- pdf: Fill PDF forms");
});

test("append comes last", () => {
  const prompt = buildSystemPrompt(input({ append: "EXTRA: answer in French." }));
  expect(prompt.endsWith("\n\nEXTRA: answer in French.")).toBe(true);
  expect(prompt).toContain("You are nova");
});

test("the same input gives the same string", () => {
  expect(buildSystemPrompt(input())).toBe(buildSystemPrompt(input()));
});
