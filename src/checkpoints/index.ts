/**
 * Checkpoints (docs/checkpoints.md): before a tool batch that may change
 * files, the state of the session cwd is known; after it, what changed is
 * recorded, so `revert` can put the files back, whatever tool changed them,
 * bash included. The contents live in nova's own content-addressed store
 * under `$NOVA_HOME/checkpoints/<project>/`, never in the user's `.git`.
 *
 * The stat pass (scan.ts) decides: a file is read only when its stat
 * changed since it was last seen, and a batch that changed nothing records
 * nothing.
 */
import {
  appendFileSync,
  existsSync,
  lstatSync,
  mkdirSync,
  readFileSync,
  readlinkSync,
  readdirSync,
  rmSync,
  rmdirSync,
  symlinkSync,
  chmodSync,
  type Stats,
  writeFileSync,
} from "node:fs";
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from "node:path";
import { isBinary, unifiedDiff } from "./diff.ts";
import { ObjectStore } from "./objects.ts";
import { type Scan, type Stat, sameStat, scanTree } from "./scan.ts";

export { pruneCheckpoints } from "./prune.ts";

export interface CheckpointSettings {
  enabled: boolean;
  /** files larger than this are listed as not restorable instead of copied */
  maxFileBytes: number;
  /** a cwd with more entries than this is not checkpointed */
  maxFiles: number;
  maxAgeDays: number;
  maxBytes: number;
}

export type Change = "added" | "modified" | "deleted" | "renamed";

export interface FileChange {
  path: string;
  change: Change;
  /** the old path of a rename */
  from?: string;
}

/** What a path held: a file's content by hash, a symlink's target, or a file too large to keep. */
export type Content = { kind: "file"; hash: string; mode: number; size: number } | { kind: "link"; target: string } | { kind: "big"; size: number };

export interface CheckpointRecord {
  v: 1;
  sessionId: string;
  entryId: string;
  turnIndex: number;
  timestamp: number;
  /** a record written by revert, so later reverts see the files as revert left them */
  revert?: true;
  files: FileChange[];
  /** per path: [before, after]; null = absent */
  states: Record<string, [Content | null, Content | null]>;
  dirs: { added: string[]; removed: string[] };
  notRestorable: { path: string; reason: string }[];
}

export interface CheckpointSummary {
  entryId: string;
  turnIndex: number;
  timestamp: number;
  files: FileChange[];
  notRestorable?: CheckpointRecord["notRestorable"];
}

export interface RevertResult {
  restored: string[];
  conflicts: { path: string; reason: string }[];
  skipped: { path: string; reason: string }[];
}

export interface CheckpointsStatus {
  enabled: boolean;
  /** why checkpoints are off */
  reason?: string;
  /** the project's store */
  store?: string;
}

interface Known {
  stat: Stat;
  content?: Content;
}
type State = Map<string, Known>;

interface Batch {
  /** contents before the batch of the paths write/edit named */
  targeted: Map<string, Content | null>;
  targetedReady?: Promise<unknown>;
  /** folders a targeted write may create */
  missingDirs: Set<string>;
  /** the whole cwd before the batch, once a tool without targets runs */
  full?: Promise<State | undefined>;
  outside: Set<string>;
}

/** Stands for a stat that is never equal to a real one: the content decides. */
const UNKNOWN_STAT: Stat = { kind: "file", size: -1, mtimeMs: -1, ctimeMs: -1, ino: -1, mode: 0 };
const DIR_STAT: Stat = { kind: "dir", size: -1, mtimeMs: -1, ctimeMs: -1, ino: -1, mode: 0 };

export class CheckpointError extends Error {}

export class Checkpoints {
  readonly dir: string;
  private readonly objects: ObjectStore;
  private readonly log: string;
  private known: State = new Map();
  private batch: Batch | undefined;
  /** a before-scan started while the model was still writing a tool call (prefetch) */
  private early: Promise<State | undefined> | undefined;
  private chain: Promise<unknown> = Promise.resolve();
  private off: string | undefined;

  constructor(
    private readonly opts: {
      cwd: string;
      novaHome: string;
      settings: CheckpointSettings;
      sessionId: () => string;
      /** when the session entry was made (ms), for "at or after this entry" */
      entryTime: (entryId: string) => number | undefined;
      onRecord?: (record: CheckpointRecord) => void;
    },
  ) {
    this.dir = projectDir(opts.novaHome, opts.cwd);
    this.objects = new ObjectStore(join(this.dir, "objects"));
    this.log = join(this.dir, "checkpoints.jsonl");
    if (!opts.settings.enabled) this.off = "checkpoints.enabled is false in the config";
  }

  get status(): CheckpointsStatus {
    return this.off ? { enabled: false, reason: this.off } : { enabled: true, store: this.dir };
  }

  /**
   * Starts the before-scan of the next batch early, while the model is still
   * streaming the tool call, so the batch does not wait for it.
   */
  prefetch(): void {
    if (this.off || this.batch || this.early) return;
    this.early = this.chain.then(() => this.capture());
  }

  /**
   * Before a tool that may change files. `targets` are the only paths it can
   * change (write, edit): their contents are kept and no scan is needed;
   * without targets (bash, an unknown tool) the whole cwd's state before the
   * batch is made known, once per batch.
   */
  beginBatch(targets?: string[]): Promise<unknown> {
    if (this.off) return Promise.resolve();
    const batch: Batch = (this.batch ??= { targeted: new Map(), missingDirs: new Set(), outside: new Set() });
    const previous = this.chain;
    if (targets) {
      const known = (batch.targetedReady ?? previous).then(() => {
        for (const target of targets) {
          const path = this.relative(target);
          if (batch.targeted.has(path) || batch.full) continue;
          batch.targeted.set(path, this.keep(path));
          for (let dir = dirname(path); dir !== "." && dir !== "" && !existsSync(join(this.opts.cwd, dir)); dir = dirname(dir)) batch.missingDirs.add(dir);
        }
      });
      batch.targetedReady = known;
      return known;
    }
    if (!batch.full) {
      const early = this.early;
      this.early = undefined;
      batch.full = (batch.targetedReady ?? previous).then(() => (early && batch.targeted.size === 0 ? early : this.capture()));
    }
    return batch.full;
  }

  /** A mutating tool's target outside the cwd: listed as not restorable. */
  noteOutside(path: string): void {
    this.batch?.outside.add(path);
  }

  /** After the batch: records what changed, if anything did. */
  endBatch(meta: { entryId: string; turnIndex: number }): Promise<CheckpointRecord | undefined> {
    const batch = this.batch;
    this.batch = undefined;
    if (!batch) return Promise.resolve(undefined);
    const done = Promise.all([batch.full, batch.targetedReady]).then(([full]) => {
      let record: CheckpointRecord | undefined;
      if (batch.full) {
        if (!full) return undefined;
        // what the targeted tools changed before the scan: their kept contents are the state before
        const before: State = new Map(full);
        for (const [path, content] of batch.targeted) {
          if (content === null) before.delete(path);
          else before.set(path, { stat: UNKNOWN_STAT, content });
        }
        for (const dir of batch.missingDirs) before.delete(dir);
        const after = this.capture();
        if (!after) return undefined;
        record = this.compare(before, after, meta, batch.outside);
      } else record = this.compareTargets(batch, meta);
      if (!record) return undefined;
      this.append(record);
      this.opts.onRecord?.(record);
      return record;
    });
    this.chain = done.catch(() => undefined);
    return done;
  }

  /** This session's checkpoints, oldest first (revert records excluded). */
  list(): CheckpointSummary[] {
    return this.records()
      .filter((r) => !r.revert)
      .map((r) => ({
        entryId: r.entryId,
        turnIndex: r.turnIndex,
        timestamp: r.timestamp,
        files: r.files,
        ...(r.notRestorable.length > 0 ? { notRestorable: r.notRestorable } : {}),
      }));
  }

  /** The files a turn's tools changed and their unified diff. */
  changes(entryId: string): { files: FileChange[]; diff: string } {
    const records = this.records().filter((r) => r.entryId === entryId && !r.revert);
    if (records.length === 0) throw new CheckpointError(`no checkpoint has entryId ${JSON.stringify(entryId)}`);
    const files = records.flatMap((r) => r.files);
    let diff = "";
    for (const r of records) {
      for (const [path, [before, after]] of Object.entries(r.states)) diff += this.diffOf(path, before, after);
    }
    return { files, diff };
  }

  /**
   * Puts the files back as they were before the tools of `entryId` (and of
   * every checkpoint after it) ran. A file changed since the last checkpoint
   * that touched it is a conflict, left alone unless `force`.
   */
  async revert(entryId: string, opts: { dryRun?: boolean; paths?: string[]; force?: boolean } = {}): Promise<RevertResult> {
    await this.chain;
    const since = this.opts.entryTime(entryId);
    if (since === undefined) throw new CheckpointError(`no entry has id ${JSON.stringify(entryId)}`);
    const records = this.records().filter((r) => r.timestamp >= since);
    const target = new Map<string, Content | null>();
    const expected = new Map<string, Content | null>();
    const unrestorable = new Map<string, string>();
    const addedDirs = new Set<string>();
    const removedDirs = new Set<string>();
    for (const r of records) {
      for (const [path, [before, after]] of Object.entries(r.states)) {
        if (!target.has(path)) target.set(path, before);
        expected.set(path, after);
      }
      for (const n of r.notRestorable) unrestorable.set(n.path, n.reason);
      for (const d of r.dirs.added) removedDirs.has(d) ? removedDirs.delete(d) : addedDirs.add(d);
      for (const d of r.dirs.removed) addedDirs.has(d) ? addedDirs.delete(d) : removedDirs.add(d);
    }
    const wanted = opts.paths?.map((p) => this.relative(p));
    const inScope = (path: string) => !wanted || wanted.some((w) => path === w || path.startsWith(`${w}/`));
    const result: RevertResult = { restored: [], conflicts: [], skipped: [] };
    const states: CheckpointRecord["states"] = {};
    for (const [path, reason] of unrestorable) if (inScope(path)) result.skipped.push({ path, reason });
    for (const [path, before] of target) {
      if (!inScope(path)) continue;
      if (before?.kind === "big") {
        result.skipped.push({ path, reason: `larger than ${this.opts.settings.maxFileBytes} bytes when recorded; not copied` });
        continue;
      }
      const current = this.contentOf(path);
      if (same(current, before)) continue;
      if (!opts.force && !same(current, expected.get(path) ?? null)) {
        result.conflicts.push({ path, reason: "changed after the checkpoint; pass force to overwrite" });
        continue;
      }
      if (!opts.dryRun) this.put(path, before);
      states[path] = [current, before];
      result.restored.push(path);
    }
    const dirsAdded: string[] = [];
    const dirsRemoved: string[] = [];
    for (const d of [...addedDirs].filter(inScope).sort((a, b) => b.length - a.length)) {
      const abs = join(this.opts.cwd, d);
      if (!isEmptyDir(abs)) continue;
      if (!opts.dryRun) rmdirSync(abs);
      dirsRemoved.push(d);
    }
    for (const d of [...removedDirs].filter(inScope).sort()) {
      if (existsSync(join(this.opts.cwd, d))) continue;
      if (!opts.dryRun) mkdirSync(join(this.opts.cwd, d), { recursive: true });
      dirsAdded.push(d);
    }
    if (!opts.dryRun && (result.restored.length > 0 || dirsAdded.length + dirsRemoved.length > 0)) {
      this.append({
        v: 1,
        sessionId: this.opts.sessionId(),
        entryId,
        turnIndex: -1,
        timestamp: Date.now(),
        revert: true,
        files: result.restored.map((path) => ({ path, change: "modified" })),
        states,
        dirs: { added: dirsAdded, removed: dirsRemoved },
        notRestorable: [],
      });
    }
    return result;
  }

  /** A batch of write and edit calls only: just their targets are compared, no scan. */
  private compareTargets(batch: Batch, meta: { entryId: string; turnIndex: number }): CheckpointRecord | undefined {
    const before: State = new Map();
    const after: State = new Map();
    for (const [path, content] of batch.targeted) {
      if (content) before.set(path, { stat: UNKNOWN_STAT, content });
      const now = this.keep(path);
      if (now) after.set(path, { stat: UNKNOWN_STAT, content: now });
    }
    for (const dir of batch.missingDirs) if (existsSync(join(this.opts.cwd, dir))) after.set(dir, { stat: DIR_STAT });
    return this.compare(before, after, meta, batch.outside);
  }

  // ----- capture -----

  /** The cwd's state now; contents read only where the stat changed. Undefined when checkpoints had to turn off. */
  private capture(): State | undefined {
    if (this.off) return undefined;
    const started = performance.now();
    let scan: Scan;
    try {
      scan = scanTree(this.opts.cwd);
    } catch (error) {
      return this.turnOff(`the cwd could not be scanned (${(error as Error).message})`);
    }
    // a cwd this slow to scan (a whole home folder, a network mount) would slow every batch
    if (performance.now() - started > 5000) return this.turnOff("a scan of the cwd took more than 5 s");
    if (scan.size > this.opts.settings.maxFiles) {
      return this.turnOff(`the cwd has more than ${this.opts.settings.maxFiles} files and folders (checkpoints.maxFiles)`);
    }
    const state: State = new Map();
    for (const [path, stat] of scan) {
      const old = this.known.get(path);
      if (old && sameStat(old.stat, stat)) {
        state.set(path, old);
        continue;
      }
      state.set(path, { stat, content: stat.kind === "dir" ? undefined : this.read(path, stat) });
    }
    this.known = state;
    return state;
  }

  private turnOff(reason: string): undefined {
    this.off = reason;
    process.stderr.write(`nova: checkpoints are off for this session: ${reason}\n`);
    return undefined;
  }

  private read(path: string, stat: Stat): Content | undefined {
    const abs = join(this.opts.cwd, path);
    try {
      if (stat.kind === "link") return { kind: "link", target: readlinkSync(abs) };
      if (stat.size > this.opts.settings.maxFileBytes) return { kind: "big", size: stat.size };
      const bytes = readFileSync(abs);
      return { kind: "file", hash: this.objects.put(bytes), mode: stat.mode, size: bytes.length };
    } catch {
      return undefined;
    }
  }

  private compare(before: State, after: State, meta: { entryId: string; turnIndex: number }, outside: Set<string>): CheckpointRecord | undefined {
    const states: CheckpointRecord["states"] = {};
    const added: string[] = [];
    const deleted: string[] = [];
    const modified: string[] = [];
    const dirs = { added: [] as string[], removed: [] as string[] };
    for (const [path, b] of before) {
      const a = after.get(path);
      if (b.stat.kind === "dir") {
        if (a?.stat.kind !== "dir") dirs.removed.push(path);
        continue;
      }
      const bc = b.content ?? null;
      const ac = a && a.stat.kind !== "dir" ? (a.content ?? null) : null;
      if (same(bc, ac)) continue;
      states[path] = [bc, ac];
      if (ac === null) deleted.push(path);
      else modified.push(path);
    }
    for (const [path, a] of after) {
      if (before.get(path)) {
        if (a.stat.kind === "dir" && before.get(path)!.stat.kind !== "dir") dirs.added.push(path);
        continue;
      }
      if (a.stat.kind === "dir") {
        dirs.added.push(path);
        continue;
      }
      states[path] = [null, a.content ?? null];
      added.push(path);
    }
    const notRestorable = [...outside].map((path) => ({ path, reason: "outside the cwd; not recorded" }));
    for (const [path, [b, a]] of Object.entries(states)) {
      if (b?.kind === "big" || a?.kind === "big") notRestorable.push({ path, reason: `larger than ${this.opts.settings.maxFileBytes} bytes; not copied` });
    }
    const files: FileChange[] = [];
    const renamedFrom = new Set<string>();
    for (const path of added) {
      const content = states[path]![1];
      const from = deleted.find((d) => !renamedFrom.has(d) && content && same(states[d]![0], content));
      if (from) {
        renamedFrom.add(from);
        files.push({ path, change: "renamed", from });
      } else files.push({ path, change: "added" });
    }
    for (const path of modified) files.push({ path, change: "modified" });
    for (const path of deleted) if (!renamedFrom.has(path)) files.push({ path, change: "deleted" });
    files.sort((x, y) => (x.path < y.path ? -1 : 1));
    if (files.length === 0 && dirs.added.length + dirs.removed.length === 0 && notRestorable.length === 0) return undefined;
    return { v: 1, sessionId: this.opts.sessionId(), ...meta, timestamp: Date.now(), files, states, dirs, notRestorable };
  }

  /** A path's content now, stored so it can be put back. */
  private keep(path: string): Content | null {
    return this.contentOf(path, true);
  }

  // ----- restore -----

  /** A path's content now: hashed to compare, or (`store`) kept in the object store too. */
  private contentOf(path: string, store = false): Content | null {
    const abs = join(this.opts.cwd, path);
    let s: Stats;
    try {
      s = lstatSync(abs);
    } catch {
      return null;
    }
    if (s.isSymbolicLink()) return { kind: "link", target: readlinkSync(abs) };
    if (!s.isFile()) return null;
    if (s.size > this.opts.settings.maxFileBytes) return { kind: "big", size: s.size };
    const bytes = readFileSync(abs);
    return { kind: "file", hash: store ? this.objects.put(bytes) : ObjectStore.hash(bytes), mode: s.mode & 0o777, size: bytes.length };
  }

  private put(path: string, content: Content | null): void {
    const abs = join(this.opts.cwd, path);
    const existing = lstatOrUndefined(abs);
    if (existing?.isDirectory() && content !== null) rmSync(abs, { recursive: true, force: true });
    else if (existing && (content === null || content.kind === "link" || existing.isSymbolicLink())) rmSync(abs, { force: true });
    if (content === null) return;
    mkdirSync(dirname(abs), { recursive: true });
    if (content.kind === "link") symlinkSync(content.target, abs);
    else if (content.kind === "file") {
      writeFileSync(abs, this.objects.get(content.hash));
      chmodSync(abs, content.mode);
    }
  }

  private diffOf(path: string, before: Content | null, after: Content | null): string {
    const text = (c: Content | null): string | undefined | Uint8Array => {
      if (c === null) return undefined;
      if (c.kind === "link") return `symlink → ${c.target}\n`;
      if (c.kind === "big") return new Uint8Array([0]);
      return this.objects.get(c.hash);
    };
    const b = text(before);
    const a = text(after);
    if ((b instanceof Uint8Array && isBinary(b)) || (a instanceof Uint8Array && isBinary(a))) {
      return `Binary files ${before ? `a/${path}` : "/dev/null"} and ${after ? `b/${path}` : "/dev/null"} differ\n`;
    }
    const decode = (x: string | undefined | Uint8Array) => (x instanceof Uint8Array ? new TextDecoder().decode(x) : x);
    const diff = unifiedDiff(path, decode(b), decode(a));
    if (diff === "" && before?.kind === "file" && after?.kind === "file" && before.mode !== after.mode) {
      return `--- a/${path}\n+++ b/${path}\nold mode ${before.mode.toString(8)}\nnew mode ${after.mode.toString(8)}\n`;
    }
    return diff;
  }

  // ----- the log -----

  private records(): CheckpointRecord[] {
    const sessionId = this.opts.sessionId();
    return readRecords(this.log).filter((r) => r.sessionId === sessionId);
  }

  private append(record: CheckpointRecord): void {
    mkdirSync(this.dir, { recursive: true });
    appendFileSync(this.log, `${JSON.stringify(record)}\n`);
  }

  private relative(path: string): string {
    const abs = isAbsolute(path) ? path : resolve(this.opts.cwd, path);
    return relative(this.opts.cwd, abs).split(sep).join("/");
  }
}

export function readRecords(log: string): CheckpointRecord[] {
  let text: string;
  try {
    text = readFileSync(log, "utf8");
  } catch {
    return [];
  }
  const out: CheckpointRecord[] = [];
  for (const line of text.split("\n")) {
    if (!line) continue;
    try {
      out.push(JSON.parse(line) as CheckpointRecord);
    } catch {
      // a torn last line after a kill: the checkpoint it held is lost, the rest stands
    }
  }
  return out;
}

/** `$NOVA_HOME/checkpoints/<name>-<hash of the real cwd>`. */
export function projectDir(novaHome: string, cwd: string): string {
  const key = new Bun.CryptoHasher("sha256").update(resolve(cwd)).digest("hex").slice(0, 16);
  const name =
    basename(resolve(cwd))
      .replace(/[^A-Za-z0-9._-]/g, "_")
      .slice(0, 40) || "root";
  return join(novaHome, "checkpoints", `${name}-${key}`);
}

function same(a: Content | null | undefined, b: Content | null | undefined): boolean {
  if (!a || !b) return (a ?? null) === (b ?? null);
  if (a.kind !== b.kind) return false;
  if (a.kind === "file" && b.kind === "file") return a.hash === b.hash && a.mode === b.mode;
  if (a.kind === "link" && b.kind === "link") return a.target === b.target;
  return false;
}

function lstatOrUndefined(path: string) {
  try {
    return lstatSync(path);
  } catch {
    return undefined;
  }
}

function isEmptyDir(path: string): boolean {
  try {
    return readdirSync(path).length === 0;
  } catch {
    return false;
  }
}
