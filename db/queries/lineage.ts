// Lineage from the materialized path: ancestors are the ids in a task's path, descendants the
// rows whose path starts with it (a text_pattern_ops index). Nothing loads a whole run.
import { asc, eq, inArray, or, sql } from "drizzle-orm";
import type { LineageJson, LineageNodeJson } from "@/lib/api/types";
import { execRows, type Db } from "../client";
import { runs, tasks } from "../schema";

const nodeColumns = {
  id: tasks.id,
  extId: tasks.extId,
  parentId: tasks.parentId,
  round: tasks.round,
  depth: tasks.depth,
  status: tasks.status,
  rejectionReason: tasks.rejectionReason,
  operator: tasks.operator,
  review: tasks.reviewState,
  openFlags: tasks.openFlags,
  solutionLines: tasks.solutionLines,
  commands: tasks.commands,
  passAtK: tasks.passAtK,
  path: tasks.path,
};

type TaskRow = typeof tasks.$inferSelect;
type NodeRow = Pick<TaskRow, "id" | "extId" | "parentId" | "round" | "depth" | "status" | "rejectionReason" | "operator" | "openFlags" | "solutionLines" | "commands" | "passAtK" | "path"> & {
  review: TaskRow["reviewState"];
};

function toNode(r: NodeRow, children: number): LineageNodeJson {
  return {
    id: r.id,
    task_id: r.extId,
    parent_id: r.parentId,
    round: r.round,
    depth: r.depth,
    status: r.status,
    rejection_reason: r.rejectionReason,
    operator: r.operator,
    review: r.review,
    open_flags: r.openFlags,
    solution_lines: r.solutionLines,
    commands: r.commands,
    pass_at_k: r.passAtK,
    children,
  };
}

/** The ids a path names, seed first: "/12/57/301/" → [12, 57, 301]. */
export function pathIds(path: string): number[] {
  return path
    .split("/")
    .filter((s) => /^\d+$/.test(s))
    .map(Number);
}

/** Direct-children counts for a set of tasks, in one grouped query. */
async function childCounts(db: Db, ids: number[]): Promise<Map<number, number>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .select({ parentId: tasks.parentId, n: sql<number>`count(*)`.mapWith(Number) })
    .from(tasks)
    .where(inArray(tasks.parentId, ids))
    .groupBy(tasks.parentId);
  return new Map(rows.map((r) => [r.parentId ?? 0, r.n]));
}

export interface LineageOptions {
  /** Include descendants (default: only the path from the seed). */
  descendants?: boolean;
  /** Levels below the task to include (default: all). */
  maxDepth?: number;
  /** At most this many descendants (default 5,000); `truncated` says when more exist. */
  limit?: number;
}

export async function getLineage(db: Db, id: number, opts: LineageOptions = {}): Promise<LineageJson | null> {
  const [self] = await db.select({ ...nodeColumns, run: runs.name }).from(tasks).innerJoin(runs, eq(runs.id, tasks.runId)).where(eq(tasks.id, id));
  if (!self) return null;
  const ancestorIds = pathIds(self.path).filter((a) => a !== id);
  const limit = opts.limit ?? 5000;
  // The rest depends only on the task's path: one more round trip, not three.
  const [ancestors, below, counts] = await Promise.all([
    ancestorIds.length ? db.select(nodeColumns).from(tasks).where(inArray(tasks.id, ancestorIds)).orderBy(asc(tasks.depth)) : [],
    opts.descendants ? descendantNodes(db, self, opts.maxDepth, limit + 1) : [],
    childCounts(db, [id, ...ancestorIds]),
  ]);
  const truncated = below.length > limit;
  const descendants = below.slice(0, limit);
  const node = (r: NodeRow) => toNode(r, counts.get(r.id) ?? 0);
  return {
    run: self.run,
    task: node(self),
    ancestors: ancestors.map(node),
    descendants,
    truncated,
  };
}

/** A node as json_build_array writes it, in nodeColumns' order with the child count last. */
type NodeTuple = [
  id: number,
  extId: string,
  parentId: number | null,
  round: number | null,
  depth: number,
  status: NodeRow["status"],
  rejectionReason: string | null,
  operator: string | null,
  review: NodeRow["review"],
  openFlags: number,
  solutionLines: number | null,
  commands: number | null,
  passAtK: number | null,
  children: number,
];

/**
 * The subtree under `self` (by path prefix: ids are unique across runs), breadth first, each with
 * its direct-children count. Built as one JSON value by the database: a family is thousands of
 * rows, and handing them over one by one (embedded PGlite especially) costs several times the query.
 */
async function descendantNodes(db: Db, self: { id: number; path: string; depth: number }, maxDepth: number | undefined, limit: number): Promise<LineageNodeJson[]> {
  const prefix = `${self.path.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  const deepest = maxDepth === undefined ? sql`` : sql`and depth <= ${self.depth + maxDepth}`;
  const [row] = await execRows<{ nodes: NodeTuple[] | string | null }>(
    db,
    sql`with d as (
          select id, ext_id, parent_id, round, depth, status, rejection_reason, operator, review_state, open_flags, solution_lines, commands, pass_at_k
          from ${tasks} where path like ${prefix} and id <> ${self.id} ${deepest}
          order by depth, ext_id limit ${limit}),
        c as (select parent_id, count(*)::int as n from ${tasks} where parent_id in (select id from d) group by parent_id)
        select json_agg(json_build_array(d.id, d.ext_id, d.parent_id, d.round, d.depth, d.status, d.rejection_reason, d.operator,
          d.review_state, d.open_flags, d.solution_lines, d.commands, d.pass_at_k, coalesce(c.n, 0)) order by d.depth, d.ext_id) as nodes
        from d left join c on c.parent_id = d.id`,
  );
  const raw = row?.nodes ?? null;
  const tuples: NodeTuple[] = typeof raw === "string" ? (JSON.parse(raw) as NodeTuple[]) : (raw ?? []);
  return tuples.map(([id, extId, parentId, round, depth, status, rejectionReason, operator, review, openFlags, solutionLines, commands, passAtK, children]) => ({
    id,
    task_id: extId,
    parent_id: parentId,
    round,
    depth,
    status,
    rejection_reason: rejectionReason,
    operator,
    review,
    open_flags: openFlags,
    solution_lines: solutionLines,
    commands,
    pass_at_k: passAtK,
    children,
  }));
}

export interface PairNode {
  id: number;
  extId: string;
  parentId: number | null;
  round: number | null;
  operator: string | null;
  depth: number;
  path: string;
  run: string;
}

/**
 * A task and the one it is compared with (`otherId`, or its parent when null), in one statement:
 * a diff page needs only these columns, and their paths say how the two are related.
 */
export async function getPairNodes(db: Db, id: number, otherId: number | null): Promise<PairNode[]> {
  const other = otherId ?? sql`(select p.parent_id from ${tasks} p where p.id = ${id})`;
  return db
    .select({ id: tasks.id, extId: tasks.extId, parentId: tasks.parentId, round: tasks.round, operator: tasks.operator, depth: tasks.depth, path: tasks.path, run: runs.name })
    .from(tasks)
    .innerJoin(runs, eq(runs.id, tasks.runId))
    .where(or(eq(tasks.id, id), eq(tasks.id, other)));
}

/** Counts of a family (all tasks under a seed) by depth and status, for headers and minimaps. */
export async function familyShape(db: Db, rootId: number): Promise<{ depth: number; accepted: number; rejected: number }[]> {
  return execRows<{ depth: number; accepted: number; rejected: number }>(
    db,
    sql`select depth, count(*) filter (where status = 'accepted')::int as accepted, count(*) filter (where status = 'rejected')::int as rejected
        from ${tasks} where root_id = ${rootId} group by depth order by depth`,
  );
}
