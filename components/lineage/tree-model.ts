// The lineage tree as rows: which nodes are loaded, which are open, which sibling groups are cut
// behind "+N more". Pure functions, shared by the task page panel and the family page.
import type { LineageJson, LineageNodeJson } from "@/lib/api/types";

export type NodeMap = ReadonlyMap<number, LineageNodeJson>;

export type TreeRow =
  | { kind: "node"; key: string; node: LineageNodeJson; indent: number; open: boolean; expandable: boolean }
  | { kind: "more"; key: string; parentId: number; indent: number; hidden: number };

export interface TreeView {
  /** Nodes whose children are hidden although loaded. */
  collapsed: ReadonlySet<number>;
  /** Parents whose whole sibling group is shown (no "+N more"). */
  showAll: ReadonlySet<number>;
  /** Always visible, even beyond the sibling cap: the path to the focused and selected nodes. */
  pinned: ReadonlySet<number>;
  /** Children shown per parent before the rest collapse behind "+N more". */
  cap: number;
}

export function addNodes(prev: NodeMap, data: Pick<LineageJson, "task" | "ancestors" | "descendants">): Map<number, LineageNodeJson> {
  const next = new Map(prev);
  for (const n of [...data.ancestors, data.task, ...data.descendants]) next.set(n.id, n);
  return next;
}

/** Loaded children per parent, accepted before rejected, then by task id. */
export function childrenIndex(nodes: NodeMap): Map<number, LineageNodeJson[]> {
  const kids = new Map<number, LineageNodeJson[]>();
  for (const n of nodes.values()) {
    if (n.parent_id === null || !nodes.has(n.parent_id)) continue;
    const list = kids.get(n.parent_id);
    if (list) list.push(n);
    else kids.set(n.parent_id, [n]);
  }
  for (const list of kids.values()) {
    list.sort((a, b) => (a.status === b.status ? (a.task_id < b.task_id ? -1 : a.task_id > b.task_id ? 1 : 0) : a.status === "accepted" ? -1 : 1));
  }
  return kids;
}

/** The topmost loaded node (the seed when the path is loaded). */
export function rootOf(nodes: NodeMap, start: number): number {
  let id = start;
  for (let n = nodes.get(id); n && n.parent_id !== null && nodes.has(n.parent_id); n = nodes.get(id)) id = n.parent_id;
  return id;
}

/** Ids from the root down to `id` (inclusive), as far as they are loaded. */
export function pathTo(nodes: NodeMap, id: number): number[] {
  const out: number[] = [];
  for (let n = nodes.get(id); n; n = n.parent_id === null ? undefined : nodes.get(n.parent_id)) out.push(n.id);
  return out.reverse();
}

type Pending = { node: LineageNodeJson; indent: number } | { row: TreeRow };

export function visibleRows(nodes: NodeMap, kids: ReadonlyMap<number, LineageNodeJson[]>, rootId: number, view: TreeView): TreeRow[] {
  const rows: TreeRow[] = [];
  const root = nodes.get(rootId);
  if (!root) return rows;
  // Iterative depth-first walk: families can be thousands of nodes and 15+ levels deep.
  const stack: Pending[] = [{ node: root, indent: 0 }];
  for (let item = stack.pop(); item; item = stack.pop()) {
    if ("row" in item) {
      rows.push(item.row);
      continue;
    }
    const { node, indent } = item;
    const loaded = kids.get(node.id) ?? [];
    const open = loaded.length > 0 && !view.collapsed.has(node.id);
    rows.push({ kind: "node", key: `n${node.id}`, node, indent, open, expandable: node.children > 0 });
    if (!open) continue;
    const all = view.showAll.has(node.id);
    const shown = all || loaded.length <= view.cap ? loaded : loaded.filter((c, i) => i < view.cap || view.pinned.has(c.id));
    const hidden = Math.max(0, node.children - shown.length);
    // Pushed in reverse so they come out in order, the "+N more" row last.
    if (hidden > 0) stack.push({ row: { kind: "more", key: `m${node.id}`, parentId: node.id, indent: indent + 1, hidden } });
    for (let i = shown.length - 1; i >= 0; i--) {
      const c = shown[i];
      if (c) stack.push({ node: c, indent: indent + 1 });
    }
  }
  return rows;
}
