/**
 * Skills are folders holding a SKILL.md. Only the name, description and path go
 * into the system prompt; the model reads the file itself when a task matches,
 * so a large skill library costs a few lines of context, not its full text.
 */
import { basename, dirname, join, resolve } from "node:path";

export interface Skill {
  name: string;
  description: string;
  path: string;
  source: "user" | "project";
}

export interface LoadedSkills {
  skills: Skill[];
  warnings: string[];
}

export async function loadSkills(input: { cwd: string; novaHome: string }): Promise<LoadedSkills> {
  const warnings: string[] = [];
  const byName = new Map<string, Skill>();
  const roots: [string, Skill["source"]][] = [
    [join(resolve(input.novaHome), "skills"), "user"],
    [join(resolve(input.cwd), ".nova", "skills"), "project"],
  ];
  // Project skills are read last so they override user skills of the same name.
  for (const [root, source] of roots) {
    for (const path of await skillFiles(root)) {
      const skill = await readSkill(path, source, warnings);
      if (skill) byName.set(skill.name, skill);
    }
  }
  const skills = [...byName.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return { skills, warnings };
}

async function skillFiles(root: string): Promise<string[]> {
  try {
    const found = await Array.fromAsync(new Bun.Glob("*/SKILL.md").scan({ cwd: root, absolute: true, onlyFiles: true, followSymlinks: true }));
    return found.sort();
  } catch {
    return [];
  }
}

async function readSkill(path: string, source: Skill["source"], warnings: string[]): Promise<Skill | undefined> {
  let text: string;
  try {
    text = await Bun.file(path).text();
  } catch (error) {
    warnings.push(`${path}: cannot read skill: ${(error as Error).message}`);
    return undefined;
  }
  const meta = frontMatter(text, path, warnings);
  if (!meta) return undefined;
  const name = meta.name === undefined ? basename(dirname(path)) : meta.name;
  if (typeof name !== "string" || name.trim() === "") {
    warnings.push(`${path}: front matter "name" must be a non-empty string, got ${JSON.stringify(name)}; skill skipped`);
    return undefined;
  }
  if (typeof meta.description !== "string" || meta.description.trim() === "") {
    warnings.push(`${path}: front matter needs a non-empty "description" string; skill skipped`);
    return undefined;
  }
  return { name: name.trim(), description: meta.description.trim(), path, source };
}

/** The YAML between a leading `---` line and the next `---` line, as an object. */
function frontMatter(text: string, path: string, warnings: string[]): Record<string, unknown> | undefined {
  const match = /^---\r?\n([\s\S]*?)\r?\n---(?:\r?\n|$)/.exec(text);
  if (!match) {
    warnings.push(`${path}: expected YAML front matter between "---" lines at the top of the file; skill skipped`);
    return undefined;
  }
  let data: unknown;
  try {
    data = parseYaml(match[1]!);
  } catch (error) {
    warnings.push(`${path}: invalid YAML front matter: ${(error as Error).message}; skill skipped`);
    return undefined;
  }
  if (data === null || typeof data !== "object" || Array.isArray(data)) {
    warnings.push(`${path}: front matter must be a YAML mapping with "name" and "description"; skill skipped`);
    return undefined;
  }
  return data as Record<string, unknown>;
}

/** yaml is loaded when a skill is found, not at startup: most spawns have none. */
function parseYaml(text: string): unknown {
  return (require("yaml") as typeof import("yaml")).parse(text);
}
