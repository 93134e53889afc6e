import { afterEach, beforeEach, expect, test } from "bun:test";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadSkills } from "../../src/agent/skills.ts";

let base: string;
let home: string;
let cwd: string;

beforeEach(async () => {
  base = await mkdtemp(join(tmpdir(), "nova-skills-"));
  home = join(base, "home");
  cwd = join(base, "project");
  await mkdir(cwd, { recursive: true });
});

afterEach(async () => {
  await rm(base, { recursive: true, force: true });
});

async function skill(root: string, folder: string, text: string): Promise<string> {
  const dir = join(root, folder);
  await mkdir(dir, { recursive: true });
  const path = join(dir, "SKILL.md");
  await writeFile(path, text);
  return path;
}

const userRoot = () => join(home, "skills");
const projectRoot = () => join(cwd, ".nova", "skills");

test("reads name and description from the front matter", async () => {
  const path = await skill(userRoot(), "pdf", "---\nname: pdf-tools\ndescription: Fill and merge PDF files\n---\n# Body\n");
  const result = await loadSkills({ cwd, novaHome: home });
  expect(result).toEqual({
    skills: [{ name: "pdf-tools", description: "Fill and merge PDF files", path, source: "user" }],
    warnings: [],
  });
});

test("the name defaults to the folder name", async () => {
  const path = await skill(projectRoot(), "release", "---\ndescription: Cut a release\n---\nsteps");
  const { skills } = await loadSkills({ cwd, novaHome: home });
  expect(skills).toEqual([{ name: "release", description: "Cut a release", path, source: "project" }]);
});

test("a missing description warns and skips the skill", async () => {
  const path = await skill(userRoot(), "vague", "---\nname: vague\n---\nbody");
  await skill(userRoot(), "good", "---\ndescription: Works\n---\n");
  const { skills, warnings } = await loadSkills({ cwd, novaHome: home });
  expect(skills.map((s) => s.name)).toEqual(["good"]);
  expect(warnings).toHaveLength(1);
  expect(warnings[0]).toContain(path);
  expect(warnings[0]).toContain('"description"');
});

test("bad or absent front matter warns and skips the skill", async () => {
  const broken = await skill(userRoot(), "broken", "---\nname: [unclosed\ndescription: x\n---\n");
  const bare = await skill(userRoot(), "bare", "# No front matter here\n");
  const list = await skill(userRoot(), "list", "---\n- a\n- b\n---\n");
  const { skills, warnings } = await loadSkills({ cwd, novaHome: home });
  expect(skills).toEqual([]);
  expect(warnings).toHaveLength(3);
  for (const path of [broken, bare, list]) expect(warnings.some((w) => w.startsWith(path))).toBe(true);
});

test("project skills override user skills of the same name", async () => {
  await skill(userRoot(), "lint", "---\ndescription: user lint\n---\n");
  await skill(userRoot(), "deploy", "---\ndescription: user deploy\n---\n");
  const projectLint = await skill(projectRoot(), "lint", "---\ndescription: project lint\n---\n");
  const { skills } = await loadSkills({ cwd, novaHome: home });
  expect(skills.map((s) => [s.name, s.description, s.source])).toEqual([
    ["deploy", "user deploy", "user"],
    ["lint", "project lint", "project"],
  ]);
  expect(skills[1]!.path).toBe(projectLint);
});

test("no skill folders means no skills and no warnings", async () => {
  expect(await loadSkills({ cwd, novaHome: home })).toEqual({ skills: [], warnings: [] });
});

test("files not directly in a skill folder are ignored", async () => {
  await skill(userRoot(), join("nested", "deeper"), "---\ndescription: too deep\n---\n");
  await mkdir(userRoot(), { recursive: true });
  await writeFile(join(userRoot(), "SKILL.md"), "---\ndescription: loose\n---\n");
  const { skills } = await loadSkills({ cwd, novaHome: home });
  expect(skills).toEqual([]);
});
