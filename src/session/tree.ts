/**
 * The session file as a tree for hosts (`get_tree`), in Pi 1.6's shape: one
 * node per entry with its children oldest first and the label it carries now.
 */
import type { SessionEntry } from "./entries.ts";

export interface TreeNode {
  entry: SessionEntry;
  children: TreeNode[];
  label?: string;
  labelTimestamp?: string;
}

/** Roots first in file order; an entry whose parent is missing is a root too. */
export function sessionTree(entries: readonly SessionEntry[]): TreeNode[] {
  const labels = new Map<string, { label: string; timestamp: string }>();
  for (const entry of entries) {
    if (entry.type !== "label") continue;
    if (entry.label) labels.set(entry.targetId, { label: entry.label, timestamp: entry.timestamp });
    else labels.delete(entry.targetId);
  }
  const nodes = new Map<string, TreeNode>();
  for (const entry of entries) {
    const label = labels.get(entry.id);
    nodes.set(entry.id, label ? { entry, children: [], label: label.label, labelTimestamp: label.timestamp } : { entry, children: [] });
  }
  const roots: TreeNode[] = [];
  for (const entry of entries) {
    const node = nodes.get(entry.id)!;
    const parent = entry.parentId === null ? undefined : nodes.get(entry.parentId);
    if (parent && parent !== node) parent.children.push(node);
    else roots.push(node);
  }
  for (const node of nodes.values()) node.children.sort((a, b) => Date.parse(a.entry.timestamp) - Date.parse(b.entry.timestamp));
  return roots;
}

/** Entries in append order after the one with id `since` (all of them without it); undefined for an unknown id. */
export function entriesSince(entries: readonly SessionEntry[], since: string | undefined): readonly SessionEntry[] | undefined {
  if (since === undefined) return entries;
  const index = entries.findIndex((entry) => entry.id === since);
  return index < 0 ? undefined : entries.slice(index + 1);
}
