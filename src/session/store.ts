/**
 * An append-only JSONL file holding the session as a tree. The in-memory copy
 * and the file never disagree: `append` writes the line before it returns, so
 * a caller can persist an entry before emitting the event announcing it, and a
 * killed process loses at most the line it was writing (which `open` skips).
 */
import { closeSync, mkdirSync, openSync, writeSync } from "node:fs";
import { join } from "node:path";
import { buildContext, type SessionContext } from "./context.ts";
import { newEntryId, SESSION_VERSION, type EntryInput, type SessionEntry, type SessionHeader } from "./entries.ts";
import { parseSessionText } from "./load.ts";

export interface CreateOptions {
  cwd: string;
  /** path of the session this one continues from (handoff, new_session) */
  parentSession?: string;
  /** the session id (Pi's --session-id); a fresh UUID by default */
  id?: string;
  /** save at exactly this path (Pi's --session FILE) instead of `<dir>/<time>_<id>.jsonl` */
  file?: string;
}

export interface OpenedSession {
  store: SessionStore;
  /** one line per repaired problem, for stderr */
  warnings: string[];
}

export class SessionStore {
  readonly header: SessionHeader;
  /** undefined for an in-memory store (`--no-session`) */
  readonly path: string | undefined;
  readonly #entries: SessionEntry[] = [];
  readonly #byId = new Map<string, SessionEntry>();
  #leafId: string | null = null;
  #name: string | undefined;
  #fd: number | undefined;
  /** set until the header is on disk (a deferred store before its first entry) */
  #unwritten: { dir: string } | undefined;
  /** set when the file's last line lacks its LF (a torn write was skipped) */
  #needsNewline = false;

  private constructor(header: SessionHeader, path: string | undefined) {
    this.header = header;
    this.path = path;
  }

  /**
   * Starts a new session file in `dir`, named `<time>_<id>.jsonl`. With
   * `deferred`, nothing touches the disk until the first entry, so a host that
   * spawns nova only to ask for its state leaves no empty session behind.
   */
  static create(dir: string, options: CreateOptions & { deferred?: boolean }): SessionStore {
    const header = newHeader(options);
    const path = options.file ?? join(dir, `${header.timestamp.replace(/[:.]/g, "-")}_${header.id}.jsonl`);
    const store = new SessionStore(header, path);
    store.#unwritten = { dir };
    if (!options.deferred) store.#materialize();
    return store;
  }

  /** The same API with nothing written, so `--no-session` needs no special cases. */
  static inMemory(options: CreateOptions): SessionStore {
    return new SessionStore(newHeader(options), undefined);
  }

  /** Loads a session file; the leaf is its last entry. Throws if it cannot be read or has no header. */
  static async open(path: string): Promise<OpenedSession> {
    const file = Bun.file(path);
    if (!(await file.exists())) throw new Error(`Session file not found: ${path}`);
    const result = parseSessionText(await file.text(), path);
    if (!result.ok) throw new Error(result.error);
    const { header, entries, warnings, endsWithNewline } = result.session;
    const store = new SessionStore(header, path);
    for (const entry of entries) store.#add(entry);
    store.#needsNewline = !endsWithNewline;
    return { store, warnings };
  }

  get sessionId(): string {
    return this.header.id;
  }

  get cwd(): string {
    return this.header.cwd;
  }

  /** The newest name given anywhere in the file: a name belongs to the session, not a branch. */
  get name(): string | undefined {
    return this.#name;
  }

  /** Every entry in file order, all branches included. */
  get entries(): readonly SessionEntry[] {
    return this.#entries;
  }

  get leafId(): string | null {
    return this.#leafId;
  }

  getEntry(id: string): SessionEntry | undefined {
    return this.#byId.get(id);
  }

  /** Adds an entry as a child of the current leaf, writes it, and makes it the leaf. */
  append(input: EntryInput): SessionEntry {
    const { type, timestamp, ...fields } = input;
    const entry = {
      type,
      id: newEntryId(this.#byId),
      parentId: this.#leafId,
      timestamp: timestamp ?? new Date().toISOString(),
      ...fields,
    } as SessionEntry;
    this.#writeLine(JSON.stringify(entry));
    this.#add(entry);
    return entry;
  }

  /**
   * Appends copies of `entries` (another session's root→leaf path, for
   * `clone`). Ids are new in the copy, so references between the entries
   * (a compaction's first kept entry, a label's target) follow them.
   */
  appendCopy(entries: readonly SessionEntry[]): void {
    const ids = new Map<string, string>();
    for (const { id, parentId: _, ...entry } of entries) {
      if (entry.type === "compaction") entry.firstKeptEntryId = ids.get(entry.firstKeptEntryId) ?? entry.firstKeptEntryId;
      if (entry.type === "label" || entry.type === "context_edit") entry.targetId = ids.get(entry.targetId) ?? entry.targetId;
      ids.set(id, this.append(entry).id);
    }
  }

  /** Moves the leaf back to `entryId`; the next append starts a new branch there. */
  branch(entryId: string): void {
    if (!this.#byId.has(entryId)) {
      throw new Error(`Unknown entry id "${entryId}": expected the id of an entry in session ${this.sessionId}`);
    }
    this.#leafId = entryId;
  }

  /** The entries from the root to the current leaf. */
  pathToLeaf(): SessionEntry[] {
    const path: SessionEntry[] = [];
    for (let id = this.#leafId; id !== null; ) {
      const entry = this.#byId.get(id);
      if (!entry) break;
      path.push(entry);
      id = entry.parentId;
    }
    return path.reverse();
  }

  buildContext(): SessionContext {
    return buildContext(this.pathToLeaf());
  }

  /** Releases the file handle; a later append reopens it. */
  close(): void {
    if (this.#fd === undefined) return;
    closeSync(this.#fd);
    this.#fd = undefined;
  }

  /** Writes the header now if nothing is on disk yet, so the session can be found before its first entry. */
  writeNow(): void {
    if (this.#unwritten) this.#materialize();
  }

  /** whether the file exists yet */
  get written(): boolean {
    return this.path !== undefined && this.#unwritten === undefined;
  }

  #materialize(): void {
    const { dir } = this.#unwritten!;
    this.#unwritten = undefined;
    mkdirSync(dir, { recursive: true });
    this.#fd = openSync(this.path!, "ax");
    this.#writeLine(JSON.stringify(this.header));
  }

  #add(entry: SessionEntry): void {
    this.#entries.push(entry);
    this.#byId.set(entry.id, entry);
    this.#leafId = entry.id;
    if (entry.type === "session_info") this.#name = entry.name;
  }

  /**
   * One write(2) per line: once it returns the bytes belong to the kernel and
   * survive this process being killed. No fsync: a power cut is not what this
   * guards against, and an fsync per entry would stall every turn.
   */
  #writeLine(line: string): void {
    if (this.path === undefined) return;
    if (this.#unwritten) this.#materialize();
    this.#fd ??= openSync(this.path, "a");
    const bytes = Buffer.from(this.#needsNewline ? `\n${line}\n` : `${line}\n`);
    // If a write throws part-way, the next line must not be glued to the torn one.
    this.#needsNewline = true;
    for (let written = 0; written < bytes.length; ) {
      written += writeSync(this.#fd, bytes, written);
    }
    this.#needsNewline = false;
  }
}

function newHeader(options: CreateOptions): SessionHeader {
  const header: SessionHeader = {
    type: "session",
    version: SESSION_VERSION,
    id: options.id ?? crypto.randomUUID(),
    timestamp: new Date().toISOString(),
    cwd: options.cwd,
  };
  if (options.parentSession !== undefined) header.parentSession = options.parentSession;
  return header;
}
