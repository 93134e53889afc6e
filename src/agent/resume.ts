/**
 * `--continue` and `--session <path|id>`: rpc, -p and json mode go on with an
 * earlier session instead of starting a new one.
 */
import type { AgentSession } from "./session.ts";
import { listSessions, sessionDirFor } from "../session/index.ts";

export type Resume = { continue: true } | { session: string };

/** Switches `session` to the one asked for; the problem as a sentence when that fails. */
export async function resumeSession(session: AgentSession, resume: Resume): Promise<string | undefined> {
  let target: { sessionPath?: string; sessionId?: string };
  if ("session" in resume) {
    const value = resume.session;
    target = value.includes("/") || value.endsWith(".jsonl") ? { sessionPath: value } : { sessionId: value };
  } else {
    const { options } = session;
    const newest = (await listSessions(options.sessionDir ?? sessionDirFor(options.config.novaHome, session.cwd)))[0];
    // nothing to continue in this folder yet: a new session, as Pi does
    if (!newest) return undefined;
    target = { sessionPath: newest.path };
  }
  try {
    await session.switchSession(target);
    return undefined;
  } catch (error) {
    const what = "session" in resume ? `--session ${resume.session}` : "--continue";
    return `${what}: ${(error as Error).message}`;
  }
}
