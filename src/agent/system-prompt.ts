/**
 * Builds the system prompt from plain inputs and nothing else (no clock, no
 * file reads but the zone file for the local date), so the same input always gives the same string and the session
 * decides when anything in it changes.
 */
import type { ContextFile } from "./context-files.ts";
import type { Skill } from "./skills.ts";
import { localIsoDate } from "./local-date.ts";

export interface SystemPromptInput {
  cwd: string;
  date: Date;
  tools: { name: string; description: string }[];
  contextFiles: ContextFile[];
  skills: Skill[];
  /** --system-prompt: replaces the base prompt; tools, environment, context and skills still follow */
  custom?: string;
  /** --append-system-prompt: added at the very end */
  append?: string;
}

const BASE_PROMPT = `You are nova, a coding agent working in the user's project through the tools listed below. You read and change code, run commands, and report back.

How to work:
- Explore before you act: use grep and find to locate code, ls to see a folder, and read to look at a file.
- Read a file before you edit it, so that your change matches what is there now.
- Change existing files with edit; use write only to create a file or replace one entirely.
- Keep changes small and focused on the request. Follow the project's conventions and run its tests or checks when you can.
- A bash command may need the user's permission and may be denied. If it is, do not retry it in another form; explain what you wanted to run and why, or find another way.
- Never print, echo or copy secrets such as API keys, tokens or passwords, even when a file or command output contains them.
- When something fails, read the error, find the cause and fix it; say so plainly if you cannot.

How to answer:
- Be concise. Lead with the result, then what you changed and anything the user must do.
- Refer to code by file path and line. Do not paste whole files back.`;

export function buildSystemPrompt(input: SystemPromptInput): string {
  const sections = [input.custom ?? BASE_PROMPT, toolsSection(input.tools), environmentSection(input.cwd, input.date)];
  if (input.contextFiles.length > 0) sections.push(contextSection(input.contextFiles));
  if (input.skills.length > 0) sections.push(skillsSection(input.skills));
  if (input.append) sections.push(input.append);
  return sections.join("\n\n");
}

function toolsSection(tools: SystemPromptInput["tools"]): string {
  if (tools.length === 0) return "# Tools\n\nNo tools are available in this session.";
  const lines = tools.map((tool) => `- ${tool.name}: ${firstLine(tool.description)}`);
  return `# Tools\n\n${lines.join("\n")}`;
}

function environmentSection(cwd: string, date: Date): string {
  return `# Environment\n\nWorking directory: ${cwd}\nToday's date: ${localIsoDate(date)}`;
}

function contextSection(files: ContextFile[]): string {
  const parts = files.map((file) => `## ${file.path}\n\n${file.content.trim()}`);
  return `# Project instructions

The user and the project left these instructions. Follow them; where they disagree, the later file is closer to the work and wins.

${parts.join("\n\n")}`;
}

function skillsSection(skills: Skill[]): string {
  const entries = skills.map((skill) => `- ${skill.name}: ${firstLine(skill.description)}\n  ${skill.path}`);
  return `# Skills

Skills are instructions for particular tasks. When a task matches a skill's description, read its SKILL.md with the read tool before you start, and follow it. Paths inside a skill are relative to its folder.

${entries.join("\n")}`;
}

/** One line per entry keeps the lists scannable; the full text stays with the tool or skill. */
function firstLine(text: string): string {
  const trimmed = text.trim();
  const end = trimmed.indexOf("\n");
  return end === -1 ? trimmed : trimmed.slice(0, end).trim();
}
