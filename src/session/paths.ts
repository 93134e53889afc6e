/**
 * Where session files live and how to find them again: one folder per working
 * directory under `$NOVA_HOME/sessions/`, laid out like Pi's so the same
 * tools can browse both.
 */
import { readdir, stat } from "node:fs/promises";
import { join, resolve } from "node:path";
import type { AgentMessage } from "../core/messages.ts";
import type { SessionHeader } from "./entries.ts";
import { blockText } from "../core/text.ts";

export interface SessionListing {
  id: string;
  path: string;
  cwd: string;
  created: Date;
  modified: Date;
  name?: string;
  messageCount: number;
  /** text of the first user message, to recognise the session by */
  firstMessage?: string;
}

/** `/home/me/app` → `<novaHome>/sessions/--home-me-app--` */
export function sessionDirFor(novaHome: string, cwd: string): string {
  const slug = cwd
    .replace(/^[/\\]/, "")
    .replace(/[/\\:]/g, "-")
    .replace(/[^A-Za-z0-9._-]/g, "_");
  return join(novaHome, "sessions", `--${slug}--`);
}

/** The sessions in one folder, newest first; files without a session header are left out. */
export async function listSessions(dir: string): Promise<SessionListing[]> {
  const names = await readdir(dir).catch(() => [] as string[]);
  const listings = await Promise.all(names.filter((name) => name.endsWith(".jsonl")).map((name) => readListing(join(dir, name))));
  return listings.filter((listing): listing is SessionListing => listing !== undefined).sort((a, b) => b.modified.getTime() - a.modified.getTime());
}

/**
 * Finds a session by id in every cwd folder under `sessionsRoot`. File names end
 * in `_<id>.jsonl`, so the name alone decides and no file is opened.
 */
export async function findSessionById(sessionsRoot: string, id: string): Promise<string | undefined> {
  const suffix = `_${id}.jsonl`;
  const folders = await readdir(sessionsRoot, { withFileTypes: true }).catch(() => []);
  for (const folder of folders) {
    if (!folder.isDirectory()) continue;
    const names = await readdir(join(sessionsRoot, folder.name)).catch(() => [] as string[]);
    const match = names.find((name) => name.endsWith(suffix));
    if (match) return join(sessionsRoot, folder.name, match);
  }
  return undefined;
}

const MESSAGE_PREFIX = '{"type":"message"';
const INFO_PREFIX = '{"type":"session_info"';

/** Reads the header and scans lines by prefix, parsing only the few it needs. */
async function readListing(path: string): Promise<SessionListing | undefined> {
  const [text, stats] = await Promise.all([Bun.file(path).text(), stat(path)]).catch(() => []);
  if (text === undefined || stats === undefined) return undefined;
  const lines = text.split("\n");
  const header = parseLine(lines[0]) as Partial<SessionHeader> | undefined;
  if (header?.type !== "session" || typeof header.id !== "string") return undefined;

  const listing: SessionListing = {
    id: header.id,
    path,
    cwd: String(header.cwd ?? ""),
    created: new Date(String(header.timestamp)),
    modified: stats.mtime,
    messageCount: 0,
  };
  for (let i = 1; i < lines.length; i++) {
    const line = lines[i]!;
    if (line.startsWith(MESSAGE_PREFIX)) {
      listing.messageCount++;
      if (listing.firstMessage === undefined) listing.firstMessage = userText(parseLine(line)?.message as AgentMessage | undefined);
    } else if (line.startsWith(INFO_PREFIX)) {
      const name = parseLine(line)?.name;
      if (typeof name === "string") listing.name = name;
    }
  }
  return listing;
}

function parseLine(line: string | undefined): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(line ?? "");
    return typeof value === "object" && value !== null ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

function userText(message: AgentMessage | undefined): string | undefined {
  if (message?.role !== "user") return undefined;
  if (typeof message.content === "string") return message.content;
  return message.content.some((part) => part.type === "text") ? blockText(message.content, "\n") : undefined;
}

/**
 * The file a `switch_session` names: a path (relative to the cwd), or an id
 * looked up in the --session-dir folder first, then under the sessions root.
 */
export async function locateSession(
  target: { sessionId?: string; sessionPath?: string },
  where: { cwd: string; sessionDir?: string; sessionsRoot: string },
): Promise<string | undefined> {
  if (target.sessionPath) return resolve(where.cwd, target.sessionPath);
  if (!target.sessionId) return undefined;
  const suffix = `_${target.sessionId}.jsonl`;
  if (where.sessionDir) {
    const name = (await readdir(where.sessionDir).catch(() => [] as string[])).find((n) => n.endsWith(suffix));
    if (name) return join(where.sessionDir, name);
  }
  return findSessionById(where.sessionsRoot, target.sessionId);
}
