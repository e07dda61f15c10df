// Flags: automatic findings of the consistency checks and reviewers' manual flags, each tied to
// the content hash it was raised on. Every read joins the flag to its task (and the task's run):
// an automatic flag on an older content hash than the task's is "outdated", shown, never open.
import { type SQL, sql } from "drizzle-orm";
import { type FlagViewStatus, NO_OPERATOR } from "@/lib/api/flag-schemas";
import type { FlagCellJson, FlagCountsJson, FlagJson, FlagRuleCountJson } from "@/lib/api/types";
import type { Actor } from "@/lib/auth/actor";
import { evidenceHref } from "@/lib/flags/evidence-href";
import { MANUAL_RULE, type FlagEvidence, type FlagSeverity, type FlagSource, type FlagStatus } from "@/lib/flags/types";
import { execRows, type Db } from "../client";
import { recordAudit } from "./audit";
import { runNamed } from "./tasks";

/**
 * Recounts tasks.open_flags for the given tasks: open manual flags, and open automatic flags raised
 * on the task's current content (a flag on an older revision no longer counts). Only tasks whose
 * count changes are written: every write of a task row also rewrites its indexes.
 */
export async function refreshOpenFlags(db: Db, taskIds: readonly number[]): Promise<void> {
  if (taskIds.length === 0) return;
  await db.execute(sql`
    UPDATE tasks t SET open_flags = c.n
    FROM (
      SELECT x.id, count(f.id) FILTER (WHERE f.status = 'open' AND (f.source = 'manual' OR f.content_hash = x.content_hash))::int AS n
      FROM tasks x LEFT JOIN flags f ON f.task_id = x.id
      WHERE x.id = ANY(${sql.raw(`'{${taskIds.map((id) => Math.trunc(id)).join(",")}}'`)}::int[])
      GROUP BY x.id
    ) c
    WHERE t.id = c.id AND t.open_flags <> c.n`);
}

export interface FlagQuery {
  run?: string;
  rule?: string;
  status?: FlagViewStatus;
  source?: FlagSource;
  severity?: FlagSeverity;
  round?: number;
  /** An operator name, or NO_OPERATOR for seeds. */
  operator?: string;
  taskId?: number;
  /** Flags older than this id (keyset pagination, newest first). */
  before?: number;
  limit: number;
}

// As a CASE, which the planner does not try to estimate: written as a bare comparison of the two
// hashes it is guessed to match almost no rows, and a page of the list then sorts the whole run.
const STALE = sql.raw(`(CASE WHEN f.source = 'auto' AND f.content_hash <> t.content_hash THEN true ELSE false END)`);

/** The reviewing order of lib/diff/files.ts (pathRank), in SQL. */
const pathRank = (path: SQL) =>
  sql`(CASE WHEN ${path} = 'solution/solve.sh' THEN 0 WHEN ${path} LIKE 'tests/%' THEN 1 WHEN ${path} = 'instruction.md' THEN 2
    WHEN ${path} LIKE 'environment/%' THEN 3 WHEN ${path} = 'task.toml' THEN 4 ELSE 5 END)`;

// The diff page anchors a line by the file's position among both tasks' paths in reviewing order;
// counted here from the file lists (no content), only for evidence that names a compared file.
const DIFF_INDEX = sql`CASE WHEN f.evidence->>'file' IS NOT NULL AND f.evidence->>'compare_task_id' ~ '^[1-9][0-9]{0,8}$' THEN (
    SELECT count(DISTINCT tf.path)::int FROM task_files tf
    WHERE tf.task_id IN (f.task_id, (f.evidence->>'compare_task_id')::int)
      AND (${pathRank(sql`tf.path`)}, tf.path COLLATE "C") < (${pathRank(sql`(f.evidence->>'file')`)}, (f.evidence->>'file') COLLATE "C")
  ) END`;

const SELECT = sql`
  SELECT f.id, f.task_id, t.ext_id, r.name AS run, t.round, t.operator, f.rule, f.source, f.status, ${STALE} AS stale,
    f.severity, f.message, f.evidence, f.content_hash, f.created_at, coalesce(cu.email, f.created_by_label) AS created_by,
    f.resolved_at, coalesce(ru.email, f.resolved_by_label) AS resolved_by, f.resolution, ${DIFF_INDEX} AS diff_index
  FROM flags f
  JOIN tasks t ON t.id = f.task_id
  JOIN runs r ON r.id = t.run_id
  LEFT JOIN users cu ON cu.id = f.created_by
  LEFT JOIN users ru ON ru.id = f.resolved_by`;

interface FlagRow {
  id: number;
  task_id: number;
  ext_id: string;
  run: string;
  round: number | null;
  operator: string | null;
  rule: string;
  source: FlagSource;
  status: FlagStatus;
  stale: boolean;
  severity: FlagSeverity;
  message: string;
  evidence: FlagEvidence | string;
  content_hash: string;
  created_at: string | Date;
  created_by: string | null;
  resolved_at: string | Date | null;
  resolved_by: string | null;
  resolution: string | null;
  diff_index: number | null;
}

const iso = (v: string | Date | null) => (v === null ? null : new Date(v).toISOString());

function toJson(r: FlagRow): FlagJson {
  // jsonb arrives parsed from both drivers; a string means a driver that did not parse it.
  const evidence = (typeof r.evidence === "string" ? JSON.parse(r.evidence) : r.evidence) as FlagEvidence;
  return {
    id: r.id,
    task_id: r.task_id,
    task_ext_id: r.ext_id,
    run: r.run,
    round: r.round,
    operator: r.operator,
    rule: r.rule,
    source: r.source,
    status: r.status,
    outdated: r.status === "open" && r.stale,
    severity: r.severity,
    message: r.message,
    evidence,
    content_hash: r.content_hash,
    created_at: iso(r.created_at) ?? "",
    created_by: r.created_by,
    resolved_at: iso(r.resolved_at),
    resolved_by: r.resolved_by,
    resolution: r.resolution,
    evidence_href: evidenceHref(r.task_id, evidence, r.diff_index),
  };
}

function conditions(q: Omit<FlagQuery, "limit" | "before">): SQL[] {
  const c: SQL[] = [];
  // The run's id up front: the flags are then read newest first and the tasks by primary key.
  if (q.run !== undefined) c.push(sql`t.run_id = ${runNamed(q.run)}`);
  if (q.rule !== undefined) c.push(sql`f.rule = ${q.rule}`);
  if (q.source !== undefined) c.push(sql`f.source = ${q.source}`);
  if (q.severity !== undefined) c.push(sql`f.severity = ${q.severity}`);
  if (q.round !== undefined) c.push(sql`t.round = ${q.round}`);
  if (q.operator === NO_OPERATOR) c.push(sql`t.operator IS NULL`);
  else if (q.operator !== undefined) c.push(sql`t.operator = ${q.operator}`);
  if (q.taskId !== undefined) c.push(sql`f.task_id = ${q.taskId}`);
  if (q.status === "open") c.push(sql`f.status = 'open' AND NOT ${STALE}`);
  else if (q.status === "outdated") c.push(sql`f.status = 'open' AND ${STALE}`);
  else if (q.status !== undefined) c.push(sql`f.status = ${q.status}`);
  return c;
}

const whereOf = (c: SQL[]) => (c.length ? sql`WHERE ${sql.join(c, sql` AND `)}` : sql``);

/** Newest first, `limit` at a time; `next` is the id to pass as `before` for the following page. */
export async function listFlags(db: Db, q: FlagQuery): Promise<{ items: FlagJson[]; next: number | null }> {
  const c = conditions(q);
  if (q.before !== undefined) c.push(sql`f.id < ${q.before}`);
  const rows = await execRows<FlagRow>(db, sql`${SELECT} ${whereOf(c)} ORDER BY f.id DESC LIMIT ${q.limit + 1}`);
  const items = rows.slice(0, q.limit).map(toJson);
  return { items, next: rows.length > q.limit ? (items.at(-1)?.id ?? null) : null };
}

export async function getFlag(db: Db, id: number): Promise<FlagJson | null> {
  const [row] = await execRows<FlagRow>(db, sql`${SELECT} WHERE f.id = ${id}`);
  return row ? toJson(row) : null;
}

/**
 * Flags per rule by status, and open flags per rule × round and rule × operator: three GROUP BYs
 * over the run's flags, so the page never carries the flags themselves.
 */
export async function countFlags(db: Db, q: { run?: string; source?: FlagSource }): Promise<FlagCountsJson> {
  const base = conditions({ run: q.run, source: q.source });
  const from = sql`FROM flags f JOIN tasks t ON t.id = f.task_id`;
  const open = whereOf([...base, sql`f.status = 'open' AND NOT ${STALE}`]);
  const [rules, byRound, byOperator] = await Promise.all([
    execRows<FlagRuleCountJson>(
      db,
      sql`SELECT f.rule,
          count(*) FILTER (WHERE f.status = 'open' AND NOT ${STALE})::int AS open,
          count(*) FILTER (WHERE f.status = 'open' AND ${STALE})::int AS outdated,
          count(*) FILTER (WHERE f.status = 'resolved')::int AS resolved,
          count(*) FILTER (WHERE f.status = 'dismissed')::int AS dismissed
        ${from} ${whereOf(base)} GROUP BY f.rule ORDER BY open DESC, f.rule`,
    ),
    execRows<{ rule: string; key: number | null; count: number }>(
      db,
      sql`SELECT f.rule, t.round AS key, count(*)::int AS count ${from} ${open} GROUP BY f.rule, t.round ORDER BY f.rule, t.round`,
    ),
    execRows<FlagCellJson>(
      db,
      sql`SELECT f.rule, coalesce(t.operator, ${NO_OPERATOR}) AS key, count(*)::int AS count ${from} ${open}
        GROUP BY f.rule, t.operator ORDER BY f.rule, key`,
    ),
  ]);
  return {
    run: q.run ?? null,
    rules,
    by_round: byRound.map((r) => ({ rule: r.rule, key: r.key === null ? "" : String(r.key), count: r.count })),
    by_operator: byOperator,
  };
}

export interface NewManualFlag {
  taskId: number;
  message: string;
  severity: FlagSeverity;
  evidence: FlagEvidence;
}

/** A reviewer's flag on the task's current content; audited and counted in one transaction. Null: no such task. */
export async function createManualFlag(db: Db, input: NewManualFlag, actor: Actor): Promise<FlagJson | null> {
  const id = await db.transaction(async (tx) => {
    const [row] = await execRows<{ id: number; content_hash: string }>(
      tx,
      sql`INSERT INTO flags (task_id, rule, source, status, severity, message, evidence, content_hash, created_by, created_by_label)
        SELECT t.id, ${MANUAL_RULE}, 'manual', 'open', ${input.severity}, ${input.message}, ${JSON.stringify(input.evidence)}::jsonb,
          t.content_hash, ${actor.userId}, ${actor.label}
        FROM tasks t WHERE t.id = ${input.taskId}
        RETURNING id, content_hash`,
    );
    if (!row) return null;
    await recordAudit(tx, {
      actorId: actor.userId,
      actorLabel: actor.label,
      action: "flag.create",
      targetType: "flag",
      targetId: String(row.id),
      details: { task_id: input.taskId, rule: MANUAL_RULE, severity: input.severity, message: input.message, content_hash: row.content_hash },
    });
    await refreshOpenFlags(tx, [input.taskId]);
    return row.id;
  });
  return id === null ? null : getFlag(db, id);
}

export type SetFlagStatusResult = { ok: true; flag: FlagJson; changed: boolean } | { ok: false; problem: "not_found" };

/**
 * Resolves, dismisses (with a reason) or reopens a flag. Setting the status it already has changes
 * nothing (a double submit is harmless); otherwise the change, its audit row and the task's count
 * commit together.
 */
export async function setFlagStatus(db: Db, id: number, change: { status: FlagStatus; reason: string | null }, actor: Actor): Promise<SetFlagStatusResult> {
  const changed = await db.transaction(async (tx) => {
    const [before] = await execRows<{ task_id: number; rule: string; status: FlagStatus; content_hash: string }>(
      tx,
      sql`SELECT task_id, rule, status, content_hash FROM flags WHERE id = ${id} FOR UPDATE`,
    );
    if (!before) return null;
    if (before.status === change.status) return false;
    const closing = change.status !== "open";
    await tx.execute(sql`UPDATE flags SET status = ${change.status},
        resolution = ${closing ? change.reason : null},
        resolved_by = ${closing ? actor.userId : null},
        resolved_by_label = ${closing ? actor.label : null},
        resolved_at = ${closing ? sql`now()` : null}
      WHERE id = ${id}`);
    await recordAudit(tx, {
      actorId: actor.userId,
      actorLabel: actor.label,
      action: change.status === "open" ? "flag.reopen" : change.status === "resolved" ? "flag.resolve" : "flag.dismiss",
      targetType: "flag",
      targetId: String(id),
      details: { task_id: before.task_id, rule: before.rule, from: before.status, to: change.status, reason: change.reason, content_hash: before.content_hash },
    });
    await refreshOpenFlags(tx, [before.task_id]);
    return true;
  });
  if (changed === null) return { ok: false, problem: "not_found" };
  const flag = await getFlag(db, id);
  return flag ? { ok: true, flag, changed } : { ok: false, problem: "not_found" };
}
