/**
 * The session a process starts with, as Pi's command line names it:
 * `--session <path|id>`, `--continue`, `--fork <path|id>`, `--session-id`.
 * A path that does not exist yet becomes a new session saved there; an id is
 * matched in the working directory's folder first (exactly, then as a
 * prefix), then in every folder under the sessions root.
 */
import { readdir } from "node:fs/promises";
import { existsSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { listSessions } from "./paths.ts";
import { SessionStore } from "./store.ts";

export interface StartSpec {
  session?: string;
  continue?: boolean;
  fork?: string;
  sessionId?: string;
}

export interface StartWhere {
  cwd: string;
  /** the folder new sessions of this cwd go to */
  dir: string;
  /** where every cwd's folder lives, for ids from other directories; absent with a flat --session-dir */
  sessionsRoot?: string;
}

export class StartError extends Error {}

/** True when the spec names a session at all (nothing to do otherwise). */
export function hasStartSpec(spec: StartSpec): boolean {
  return spec.session !== undefined || spec.continue === true || spec.fork !== undefined || spec.sessionId !== undefined;
}

/** `--session` given a path (Pi's rule: it has a slash or ends in .jsonl), resolved; undefined for an id. */
export function sessionPathArg(ref: string, cwd: string): string | undefined {
  return ref.includes("/") || ref.includes("\\") || ref.endsWith(".jsonl") ? resolve(cwd, ref) : undefined;
}

/** The store to start with; undefined means a fresh session in the usual place. */
export async function openStartSession(spec: StartSpec, where: StartWhere, warn: (message: string) => void): Promise<SessionStore | undefined> {
  const open = async (path: string) => {
    try {
      const { store, warnings } = await SessionStore.open(path);
      for (const warning of warnings) warn(warning);
      return store;
    } catch (error) {
      throw new StartError((error as Error).message);
    }
  };
  if (spec.fork !== undefined) {
    if (spec.sessionId !== undefined && (await findId(where.dir, spec.sessionId, true))) {
      throw new StartError(`--session-id ${spec.sessionId}: a session with this id already exists in ${where.dir}`);
    }
    const path = await locate(spec.fork, where);
    if (!path || !existsSync(path)) throw new StartError(`--fork: no session found matching "${spec.fork}"`);
    const source = await open(path);
    const store = SessionStore.create(where.dir, { cwd: where.cwd, parentSession: path, id: spec.sessionId, deferred: true });
    store.appendCopy(source.pathToLeaf());
    return store;
  }
  if (spec.session !== undefined) {
    const path = await locate(spec.session, where);
    if (!path) throw new StartError(`--session: no session found matching "${spec.session}"`);
    if (existsSync(path)) return open(path);
    return SessionStore.create(dirname(path), { cwd: where.cwd, file: path, deferred: true });
  }
  if (spec.continue) {
    // a flat --session-dir holds every cwd's sessions, so the header's cwd decides
    const newest = (await listSessions(where.dir)).find((listing) => listing.cwd === where.cwd);
    return newest ? open(newest.path) : undefined;
  }
  if (spec.sessionId !== undefined) {
    const path = await findId(where.dir, spec.sessionId, true);
    if (path) return open(path);
    return SessionStore.create(where.dir, { cwd: where.cwd, id: spec.sessionId, deferred: true });
  }
  return undefined;
}

/** A path as given, or the file of the session whose id (or id prefix) is `ref`. */
async function locate(ref: string, where: StartWhere): Promise<string | undefined> {
  const path = sessionPathArg(ref, where.cwd);
  if (path) return path;
  const local = (await findId(where.dir, ref, true)) ?? (await findId(where.dir, ref, false));
  if (local || !where.sessionsRoot) return local;
  const folders = (await readdir(where.sessionsRoot, { withFileTypes: true }).catch(() => [])).filter((f) => f.isDirectory());
  for (const exact of [true, false]) {
    for (const folder of folders) {
      const found = await findId(join(where.sessionsRoot, folder.name), ref, exact);
      if (found) return found;
    }
  }
  return undefined;
}

/** Session files are named `<time>_<id>.jsonl`, so the name alone decides. */
async function findId(dir: string, id: string, exact: boolean): Promise<string | undefined> {
  const names = await readdir(dir).catch(() => [] as string[]);
  const match = names.find((name) => {
    if (!name.endsWith(".jsonl")) return false;
    const fileId = name.slice(name.indexOf("_") + 1, -".jsonl".length);
    return exact ? fileId === id : fileId.startsWith(id);
  });
  return match ? join(dir, match) : undefined;
}
