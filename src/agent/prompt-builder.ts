/**
 * Builds the system prompt once per session and keeps it: context files and
 * skills are read on first use, not at startup, so spawning nova stays cheap.
 */
import { loadContextFiles } from "./context-files.ts";
import { loadSkills } from "./skills.ts";
import { buildSystemPrompt } from "./system-prompt.ts";

export interface PromptOptions {
  cwd: string;
  novaHome: string;
  custom?: string;
  append?: string;
  noContextFiles?: boolean;
  noSkills?: boolean;
}

export class PromptBuilder {
  private cached: { key: string; text: string } | undefined;
  private loading: Promise<Awaited<ReturnType<typeof loadParts>>> | undefined;

  constructor(private readonly options: PromptOptions) {}

  async build(tools: { name: string; description: string }[]): Promise<string> {
    const key = tools.map((t) => t.name).join(",");
    if (this.cached?.key === key) return this.cached.text;
    this.loading ??= loadParts(this.options);
    const { contextFiles, skills } = await this.loading;
    const text = buildSystemPrompt({
      cwd: this.options.cwd,
      date: new Date(),
      tools,
      contextFiles,
      skills,
      custom: this.options.custom,
      append: this.options.append,
    });
    this.cached = { key, text };
    return text;
  }
}

async function loadParts(options: PromptOptions) {
  const [contextFiles, loaded] = await Promise.all([
    options.noContextFiles ? [] : loadContextFiles(options),
    options.noSkills ? { skills: [], warnings: [] } : loadSkills(options),
  ]);
  for (const warning of loaded.warnings) process.stderr.write(`nova: ${warning}\n`);
  return { contextFiles, skills: loaded.skills };
}
