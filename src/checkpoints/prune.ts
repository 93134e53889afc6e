/**
 * Retention, run once at start in the background: checkpoints older than
 * `maxAgeDays`, then the oldest beyond `maxBytes` of stored objects, are
 * dropped from each project's log, and objects no checkpoint names any more
 * are deleted (only those older than an hour, so an object another nova just
 * stored for a checkpoint it has not logged yet survives).
 */
import { existsSync, readdirSync, renameSync, statSync, unlinkSync, writeFileSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { CheckpointRecord, CheckpointSettings } from "./index.ts";

const GRACE_MS = 60 * 60 * 1000;

export async function pruneCheckpoints(
  novaHome: string,
  settings: Pick<CheckpointSettings, "maxAgeDays" | "maxBytes">,
  now = Date.now(),
): Promise<{ dropped: number; deletedObjects: number }> {
  const root = join(novaHome, "checkpoints");
  if (!existsSync(root)) return { dropped: 0, deletedObjects: 0 };
  let dropped = 0;
  let deletedObjects = 0;
  for (const project of readdirSync(root)) {
    const result = pruneProject(join(root, project), settings, now);
    dropped += result.dropped;
    deletedObjects += result.deletedObjects;
    // yield between projects: this runs beside the host's first commands
    await Bun.sleep(0);
  }
  return { dropped, deletedObjects };
}

function pruneProject(dir: string, settings: Pick<CheckpointSettings, "maxAgeDays" | "maxBytes">, now: number) {
  const log = join(dir, "checkpoints.jsonl");
  const objectsDir = join(dir, "objects");
  if (!existsSync(log)) return { dropped: 0, deletedObjects: 0 };
  const text = readFileSync(log, "utf8");
  const lines = text.split("\n").filter(Boolean);
  const records: { line: string; record: CheckpointRecord }[] = [];
  for (const line of lines) {
    try {
      records.push({ line, record: JSON.parse(line) });
    } catch {
      // a torn line is dropped with the rest of what is pruned
    }
  }
  const oldest = now - settings.maxAgeDays * 24 * 60 * 60 * 1000;
  let kept = records.filter((r) => r.record.timestamp >= oldest);
  const sizes = objectSizes(objectsDir);
  const total = () => {
    const named = new Set(kept.flatMap((r) => hashes(r.record)));
    let sum = 0;
    for (const h of named) sum += sizes.get(h) ?? 0;
    return sum;
  };
  while (kept.length > 0 && total() > settings.maxBytes) kept = kept.slice(1);
  const dropped = records.length - kept.length + (lines.length - records.length);
  // lines another nova appended meanwhile are kept, and so are the objects they name
  const grown = readFileSync(log, "utf8").slice(text.length);
  if (dropped > 0) {
    const tmp = `${log}.${process.pid}.tmp`;
    writeFileSync(tmp, kept.map((r) => `${r.line}\n`).join("") + grown);
    renameSync(tmp, log);
  }
  const named = new Set([...kept.flatMap((r) => hashes(r.record)), ...grownHashes(grown)]);
  let deletedObjects = 0;
  for (const [hash, _size] of sizes) {
    if (named.has(hash)) continue;
    const path = join(objectsDir, hash.slice(0, 2), hash.slice(2));
    try {
      if (now - statSync(path).mtimeMs < GRACE_MS) continue;
      unlinkSync(path);
      deletedObjects++;
    } catch {
      // gone already
    }
  }
  return { dropped, deletedObjects };
}

function hashes(record: CheckpointRecord): string[] {
  const out: string[] = [];
  for (const pair of Object.values(record.states)) for (const c of pair) if (c?.kind === "file") out.push(c.hash);
  return out;
}

function grownHashes(tail: string): string[] {
  return tail
    .split("\n")
    .filter(Boolean)
    .flatMap((line) => {
      try {
        return hashes(JSON.parse(line));
      } catch {
        return [];
      }
    });
}

/** hash → compressed size on disk */
function objectSizes(dir: string): Map<string, number> {
  const sizes = new Map<string, number>();
  if (!existsSync(dir)) return sizes;
  for (const prefix of readdirSync(dir)) {
    for (const rest of readdirSync(join(dir, prefix))) {
      if (rest.endsWith(".tmp")) continue;
      try {
        sizes.set(prefix + rest, statSync(join(dir, prefix, rest)).size);
      } catch {
        // raced with another prune
      }
    }
  }
  return sizes;
}
