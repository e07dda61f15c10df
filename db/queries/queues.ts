// Review queues: members materialized from a task-table filter, handed out one reviewer at a time.
// A member is done once its task gets a decision (not a skip) after it joined the queue, wherever
// the decision was made (queue, task page, API, bulk): `done_at`, set by the database in the
// decision's transaction (trigger of migration 0011), so no read derives it from `reviews`; the
// member also keeps its latest decision and who made it (migration 0014), which the progress
// counts. Handing members out (holds, skips) is in queue-reservations.ts; what the review screen
// reads of one member is in queue-members.ts.
import { eq, sql, type SQL } from "drizzle-orm";
import type { QueueAddJson, QueueDetailJson, QueueJson, QueueProgressJson } from "@/lib/api/types";
import type { Actor } from "@/lib/auth/actor";
import type { ReviewDecision } from "@/lib/domain";
import { parseTaskFilter, taskFilterToSearch, type TaskFilter } from "@/lib/tasks/filter";
import { execRows, type Db } from "../client";
import { reviewQueues, tasks } from "../schema";
import { recordAudit } from "./audit";
import { planTextSearch } from "./task-search";
import { taskFilterWhere } from "./tasks";

/** `qi` is a queue_items row: done once a decision (not a skip) on its task came after it joined. */
export const DONE = sql`qi.done_at IS NOT NULL`;

/** The filter as stored: the task-table query string without paging. */
export function storedFilter(f: TaskFilter): string {
  const { cursor: _cursor, limit: _limit, ...rest } = f;
  return taskFilterToSearch(rest);
}

export type QueueSource = { filter: TaskFilter } | { taskIds: number[] };

export interface NewQueue {
  name: string;
  filter: TaskFilter;
  reservationMinutes?: number;
}

/** A counted or numbered column (bigint arrives as a string). Shared by the queue modules. */
export const num = (v: unknown) => Number(v ?? 0);
/** A timestamp column as ISO text. */
export const iso = (v: unknown) => new Date(v as string).toISOString();
/** Members added in one go after which the queue's table gets fresh statistics. */
const ANALYZE_AFTER = 1000;

/**
 * Adds tasks to a queue, after its last member, in the task table's default order (round, id).
 * A task already in the queue stays where it is: `already` counts those. The members are chosen
 * by the task table's own WHERE clause (db/queries/tasks.ts), so a queue holds exactly what the
 * filter showed.
 */
export async function addToQueue(db: Db, queueId: number, source: QueueSource, actor: Actor): Promise<QueueAddJson | null> {
  return db.transaction(async (tx) => {
    // The queue row lock orders concurrent additions (positions stay increasing).
    const [queue] = await execRows<{ id: number }>(tx, sql`SELECT id FROM review_queues WHERE id = ${queueId} AND archived_at IS NULL FOR UPDATE`);
    if (!queue) return null;
    let where: SQL;
    if ("taskIds" in source) {
      const ids = [...new Set(source.taskIds)];
      if (ids.length === 0) return { added: 0, already: 0 };
      where = sql`t.id IN (SELECT unnest(${`{${ids.join(",")}}`}::int[]))`;
    } else {
      where = sql`t.id IN (SELECT ${tasks.id} FROM ${tasks} WHERE ${taskFilterWhere(source.filter) ?? sql`true`})`;
      // A text search is planned as the task table plans it (its settings last to the commit).
      if (source.filter.q) await planTextSearch(tx as unknown as Db);
    }
    const [counts] = await execRows<{ matched: number; added: number }>(
      tx,
      sql`WITH matched AS (
            SELECT t.id, t.round FROM tasks t WHERE ${where}
          ), base AS (
            SELECT coalesce(max(position), 0) AS p FROM queue_items WHERE queue_id = ${queueId}
          ), inserted AS (
            INSERT INTO queue_items (queue_id, task_id, position, added_by, done_at, decision, decided_at, decided_by, decided_by_user)
            SELECT ${queueId}, m.id, (SELECT p FROM base) + row_number() OVER (ORDER BY m.round ASC NULLS LAST, m.id)::int, ${actor.label},
              d.first_at, d.decision, d.created_at, d.actor_label, d.user_id
            FROM matched m
            -- a decision of a transaction that began before this one, committed meanwhile
            LEFT JOIN LATERAL (
              SELECT r.decision, r.created_at, r.actor_label, r.user_id, min(r.created_at) OVER () AS first_at
              FROM reviews r WHERE r.task_id = m.id AND r.created_at >= now() AND r.decision <> 'skip'
              ORDER BY r.id DESC LIMIT 1
            ) d ON true
            WHERE NOT EXISTS (SELECT 1 FROM queue_items q WHERE q.queue_id = ${queueId} AND q.task_id = m.id)
            ON CONFLICT (queue_id, task_id) DO NOTHING
            RETURNING 1
          )
          SELECT (SELECT count(*) FROM matched)::int AS matched, (SELECT count(*) FROM inserted)::int AS added`,
    );
    const added = num(counts?.added);
    const result = { added, already: num(counts?.matched) - added };
    // Thousands of new members: statistics now, as an import ends with, so that the queue's first
    // reviewers are not planned from a table PostgreSQL has not looked at (autovacuum may be off or late).
    if (added >= ANALYZE_AFTER) await tx.execute(sql`ANALYZE queue_items`);
    await recordAudit(tx, {
      actorId: actor.userId,
      actorLabel: actor.label,
      action: "queue.add",
      targetType: "queue",
      targetId: String(queueId),
      details: { ...result, ...("taskIds" in source ? { task_ids: source.taskIds.length } : { filter: storedFilter(source.filter) }) },
    });
    return result;
  });
}

/** Creates a queue and fills it from its filter, in one transaction. */
export async function createQueue(db: Db, input: NewQueue, actor: Actor): Promise<QueueJson> {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .insert(reviewQueues)
      .values({
        name: input.name,
        filter: storedFilter(input.filter),
        reservationMinutes: input.reservationMinutes ?? 15,
        createdBy: actor.userId,
        createdByLabel: actor.label,
      })
      .returning({ id: reviewQueues.id });
    if (!row) throw new Error("queue insert returned nothing");
    await recordAudit(tx, {
      actorId: actor.userId,
      actorLabel: actor.label,
      action: "queue.create",
      targetType: "queue",
      targetId: String(row.id),
      details: { name: input.name, filter: storedFilter(input.filter) },
    });
    const t = tx as unknown as Db;
    await addToQueue(t, row.id, { filter: input.filter }, actor);
    const queue = await getQueueSummary(t, row.id);
    if (!queue) throw new Error("created queue not found");
    return queue;
  });
}

/** Adds the tasks the queue's own filter matches now (refresh); members are never removed. */
export async function refreshQueue(db: Db, queueId: number, actor: Actor): Promise<QueueAddJson | null> {
  const [q] = await db.select({ filter: reviewQueues.filter }).from(reviewQueues).where(eq(reviewQueues.id, queueId));
  if (!q) return null;
  const parsed = parseTaskFilter(new URLSearchParams(q.filter));
  if (!parsed.ok) throw new Error(`queue ${queueId} holds an invalid filter`);
  return addToQueue(db, queueId, { filter: parsed.filter }, actor);
}

type QueueRow = {
  id: number;
  name: string;
  filter: string;
  reservation_minutes: number;
  created_by: string | null;
  created_at: string;
  archived_at: string | null;
  total: number;
  done: number;
};

const queueColumns = sql`q.id, q.name, q.filter, q.reservation_minutes, q.created_by_label AS created_by, q.created_at, q.archived_at,
  (SELECT count(*) FROM queue_items qi WHERE qi.queue_id = q.id)::int AS total,
  (SELECT count(*) FROM queue_items qi WHERE qi.queue_id = q.id AND ${DONE})::int AS done`;

function toQueueJson(r: QueueRow): QueueJson {
  return {
    id: num(r.id),
    name: r.name,
    filter: r.filter,
    reservation_minutes: num(r.reservation_minutes),
    created_by: r.created_by,
    created_at: iso(r.created_at),
    archived: r.archived_at !== null,
    total: num(r.total),
    done: num(r.done),
  };
}

/** Queues newest first; archived ones only when asked. */
export async function listQueues(db: Db, opts: { archived?: boolean } = {}): Promise<QueueJson[]> {
  const rows = await execRows<QueueRow>(
    db,
    sql`SELECT ${queueColumns} FROM review_queues q WHERE ${opts.archived ? sql`q.archived_at IS NOT NULL` : sql`q.archived_at IS NULL`} ORDER BY q.id DESC LIMIT 500`,
  );
  return rows.map(toQueueJson);
}

async function getQueueSummary(db: Db, id: number): Promise<QueueJson | null> {
  const [row] = await execRows<QueueRow>(db, sql`SELECT ${queueColumns} FROM review_queues q WHERE q.id = ${id}`);
  return row ? toQueueJson(row) : null;
}

type DetailRow = QueueRow & {
  reserved: number;
  by_reviewer: { reviewer: string; done: number }[];
  mine: { task_id: number; ext_id: string; decision: ReviewDecision }[];
  skipped: number;
};

/**
 * A queue with its progress and, for `actor`, what they decided (for going back) and skipped: one
 * statement over the members' latest decisions, which the reviews trigger keeps on them
 * (migration 0014). A user is counted under their email now, a token under its label.
 */
export async function getQueue(db: Db, queueId: number, actor: Actor): Promise<QueueDetailJson | null> {
  const [row] = await execRows<DetailRow>(
    db,
    sql`SELECT ${queueColumns},
          -- each hold's member looked up by its key (LIMIT 1: never a walk of the done members per hold)
          (SELECT count(*) FROM queue_reservations qr
           CROSS JOIN LATERAL (SELECT ${DONE} AS done FROM queue_items qi WHERE qi.queue_id = qr.queue_id AND qi.task_id = qr.task_id LIMIT 1) m
           WHERE qr.queue_id = q.id AND qr.expires_at > now() AND NOT m.done)::int AS reserved,
          (SELECT coalesce(json_agg(json_build_object('reviewer', b.reviewer, 'done', b.n) ORDER BY b.n DESC, b.reviewer), '[]'::json)
           FROM (SELECT coalesce(u.email, d.label, 'unknown') AS reviewer, sum(d.n)::int AS n
                 FROM (SELECT qi.decided_by_user AS user_id, max(qi.decided_by) AS label, count(*) AS n
                       FROM queue_items qi WHERE qi.queue_id = q.id AND ${DONE}
                       GROUP BY qi.decided_by_user, CASE WHEN qi.decided_by_user IS NULL THEN qi.decided_by END) d
                 LEFT JOIN users u ON u.id = d.user_id
                 GROUP BY 1) b) AS by_reviewer,
          (SELECT coalesce(json_agg(json_build_object('task_id', m.task_id, 'ext_id', t.ext_id, 'decision', m.decision) ORDER BY m.decided_at DESC), '[]'::json)
           FROM (SELECT qi.task_id, qi.decision, qi.decided_at FROM queue_items qi
                 WHERE qi.queue_id = q.id AND ${DONE} AND qi.decided_by_user = ${actor.userId}
                 ORDER BY qi.decided_at DESC LIMIT 200) m
           JOIN tasks t ON t.id = m.task_id) AS mine,
          (SELECT count(*) FROM queue_skips s JOIN queue_items qi ON qi.queue_id = s.queue_id AND qi.task_id = s.task_id
           WHERE s.queue_id = q.id AND s.holder = ${actor.id} AND NOT ${DONE})::int AS skipped
        FROM review_queues q WHERE q.id = ${queueId}`,
    { prepared: true },
  );
  if (!row) return null;
  const queue = toQueueJson(row);
  const byReviewer = row.by_reviewer.map((r) => ({ reviewer: r.reviewer, done: num(r.done) }));
  const done = byReviewer.reduce((n, r) => n + r.done, 0);
  const progress: QueueProgressJson = { total: queue.total, done, left: queue.total - done, reserved: num(row.reserved), by_reviewer: byReviewer };
  const history = row.mine.map((r) => ({ id: num(r.task_id), task_id: r.ext_id, decision: r.decision })).reverse();
  return { ...queue, progress, mine: { done: history.length, history, skipped: num(row.skipped) } };
}

/** Archives (or restores) a queue: archived queues hand out no new tasks. */
export async function setQueueArchived(db: Db, queueId: number, archived: boolean, actor: Actor): Promise<QueueJson | null> {
  return db.transaction(async (tx) => {
    const rows = await tx
      .update(reviewQueues)
      .set({ archivedAt: archived ? sql`now()` : null })
      .where(eq(reviewQueues.id, queueId))
      .returning({ id: reviewQueues.id });
    if (rows.length === 0) return null;
    await recordAudit(tx, { actorId: actor.userId, actorLabel: actor.label, action: archived ? "queue.archive" : "queue.restore", targetType: "queue", targetId: String(queueId) });
    return getQueueSummary(tx as unknown as Db, queueId);
  });
}
