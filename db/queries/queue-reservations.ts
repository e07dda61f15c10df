// Handing a review queue's members out: each reviewer holds their task (and, with prefetch, the
// one after) for the queue's reservation minutes, gives holds back, and skips members they will
// not be handed again. Queues and their members are made in queues.ts.
import { and, eq, sql } from "drizzle-orm";
import type { QueueNextJson, QueueSlotJson } from "@/lib/api/types";
import type { Actor } from "@/lib/auth/actor";
import { execRows, type Db } from "../client";
import { queueItems, queueReservations, queueSkips } from "../schema";
import { recordAudit } from "./audit";
import { DONE, iso, num } from "./queues";

/** A reviewer holds their task and, with prefetch, the one after: never more. */
export const MAX_HELD = 2;

type SlotRow = { task_id: number; ext_id: string; position: number; expires_at: string };
type HeldRow = SlotRow & { reserved_at: string };
const toSlot = (r: SlotRow): QueueSlotJson => ({ task_id: num(r.task_id), ext_id: r.ext_id, position: num(r.position), expires_at: iso(r.expires_at) });

/**
 * The actor's task in the queue, reserved for them (and with `prefetch`, the one after).
 *
 * Their live reservations of members not yet done come back first, oldest first, so a reload or a
 * second tab gets the same task and the prefetched one becomes the next. Missing ones are taken
 * from the first members in queue order that are not done, not skipped by the actor and not held
 * by someone else: `FOR NO KEY UPDATE SKIP LOCKED` keeps concurrent reviewers off each other's candidates,
 * and the upsert on the reservation's primary key takes a member only when nobody holds it (or the
 * hold expired), so two reviewers never get the same task even when their snapshots overlap.
 */
export async function nextInQueue(db: Db, queueId: number, actor: Actor, opts: { prefetch?: boolean } = {}): Promise<QueueNextJson | null> {
  const want = opts.prefetch ? MAX_HELD : 1;
  // No transaction: each statement is atomic, and what keeps two reviewers off one member is the
  // upsert on the reservation's primary key, not a snapshot. Usually two round trips: the
  // reviewer's holds, then the one taken after a decision.
  //
  // One statement: the queue, the clean-up of this reviewer's done members and lapsed holds (the
  // others' rows are theirs to clean), the renewal of the rest (exactly the rows not cleaned) and
  // the counts, which holds do not change.
  //
  // Every part starts from the reviewer's own reservations (a handful) and looks each member up by
  // its key: the LATERAL … LIMIT 1 cannot be flattened into a join, so no plan can walk the queue's
  // open members instead. A queue that was just filled has no statistics yet, and that plan took
  // 9 ms per call in the review bench (docs/review-bench.md). A hold is renewed once it has lost a
  // minute (a quarter of a shorter reservation), so most calls write nothing.
  const holds = async () => {
    const [row] = await execRows<{ minutes: number; archived: boolean; left: number; skipped: number; held: HeldRow[] }>(
      db,
      sql`WITH mine AS MATERIALIZED (
            SELECT qr.task_id, qr.expires_at, qr.reserved_at, m.position, m.done OR qr.expires_at <= now() AS gone
            FROM queue_reservations qr
            CROSS JOIN LATERAL (
              SELECT qi.position, ${DONE} AS done FROM queue_items qi WHERE qi.queue_id = qr.queue_id AND qi.task_id = qr.task_id LIMIT 1
            ) m
            WHERE qr.queue_id = ${queueId} AND qr.holder = ${actor.id}
          ), cleaned AS (
            DELETE FROM queue_reservations qr USING mine m
            WHERE qr.queue_id = ${queueId} AND qr.holder = ${actor.id} AND qr.task_id = m.task_id AND m.gone
            RETURNING 1
          ), renewed AS (
            UPDATE queue_reservations qr SET expires_at = now() + make_interval(mins => q.reservation_minutes)
            FROM review_queues q, mine m
            WHERE q.id = ${queueId} AND qr.queue_id = q.id AND qr.holder = ${actor.id} AND qr.task_id = m.task_id AND NOT m.gone
              AND qr.expires_at < now() + make_interval(mins => q.reservation_minutes) - least(interval '1 minute', make_interval(mins => q.reservation_minutes) / 4)
            RETURNING qr.task_id, qr.expires_at
          ), held AS (
            SELECT m.task_id, t.ext_id, m.position, coalesce(r.expires_at, m.expires_at) AS expires_at, m.reserved_at
            FROM mine m
            CROSS JOIN LATERAL (SELECT t.ext_id FROM tasks t WHERE t.id = m.task_id LIMIT 1) t
            LEFT JOIN renewed r ON r.task_id = m.task_id
            WHERE NOT m.gone
          )
          SELECT q.reservation_minutes AS minutes, q.archived_at IS NOT NULL AS archived,
            -- open members only (the partial index of migration 0011), not the whole queue
            (SELECT count(*) FROM queue_items qi WHERE qi.queue_id = q.id AND NOT ${DONE})::int AS left,
            (SELECT count(*) FROM queue_skips s JOIN queue_items qi ON qi.queue_id = s.queue_id AND qi.task_id = s.task_id
             WHERE s.queue_id = q.id AND s.holder = ${actor.id} AND NOT ${DONE})::int AS skipped,
            (SELECT count(*) FROM cleaned) AS cleaned, (SELECT coalesce(json_agg(held), '[]'::json) FROM held) AS held
          FROM review_queues q
          WHERE q.id = ${queueId}`,
      { prepared: true },
    );
    return row;
  };
  // Oldest hold first: the task prefetched as "upcoming" is the next "current".
  const byAge = (rows: HeldRow[]) => rows.sort((a, b) => iso(a.reserved_at).localeCompare(iso(b.reserved_at)) || num(a.position) - num(b.position));
  const queue = await holds();
  if (!queue) return null;
  const minutes = num(queue.minutes);
  let mine = byAge(queue.held);
  // An archived queue hands out nothing new; what a reviewer holds stays theirs to finish.
  for (let attempt = 0; attempt < 3 && mine.length < want && !queue.archived; attempt++) {
    const need = want - mine.length;
    const taken = await execRows<HeldRow>(
      db,
      sql`WITH candidates AS (
            SELECT qi.queue_id, qi.task_id FROM queue_items qi
            WHERE qi.queue_id = ${queueId} AND NOT ${DONE}
              AND NOT EXISTS (SELECT 1 FROM queue_skips s WHERE s.queue_id = qi.queue_id AND s.task_id = qi.task_id AND s.holder = ${actor.id})
              AND NOT EXISTS (SELECT 1 FROM queue_reservations r WHERE r.queue_id = qi.queue_id AND r.task_id = qi.task_id
                              AND (r.expires_at > now() OR r.holder = ${actor.id}))
            ORDER BY qi.position, qi.task_id
            LIMIT ${need}
            FOR NO KEY UPDATE OF qi SKIP LOCKED
          ), taken AS (
            INSERT INTO queue_reservations (queue_id, task_id, holder, holder_label, reserved_at, expires_at)
            SELECT c.queue_id, c.task_id, ${actor.id}, ${actor.label}, clock_timestamp(), now() + make_interval(mins => ${minutes})
            FROM candidates c
            ON CONFLICT (queue_id, task_id) DO UPDATE
              SET holder = excluded.holder, holder_label = excluded.holder_label, reserved_at = excluded.reserved_at, expires_at = excluded.expires_at
              WHERE queue_reservations.expires_at <= now()
            RETURNING task_id, reserved_at, expires_at
          )
          SELECT k.task_id, t.ext_id, qi.position, k.expires_at, k.reserved_at
          FROM taken k JOIN tasks t ON t.id = k.task_id JOIN queue_items qi ON qi.queue_id = ${queueId} AND qi.task_id = k.task_id`,
      { prepared: true },
    );
    // All taken: they join the renewed holds. Otherwise (lost to others) another round sees their holds.
    if (taken.length === need) {
      mine = byAge([...mine, ...taken]);
      break;
    }
    mine = byAge((await holds())?.held ?? []);
    if (taken.length === 0 && attempt > 0) break;
  }
  const [current, upcoming] = mine.map(toSlot);
  return { queue_id: queueId, current: current ?? null, upcoming: upcoming ?? null, left: num(queue.left), skipped: num(queue.skipped) };
}

/** Gives back the actor's holds (one task, or all); `forgetSkips` also lets skipped members come back. */
export async function releaseReservation(db: Db, queueId: number, actor: Actor, opts: { taskId?: number; forgetSkips?: boolean } = {}): Promise<number> {
  return db.transaction(async (tx) => {
    const released = await tx
      .delete(queueReservations)
      .where(
        and(
          eq(queueReservations.queueId, queueId),
          eq(queueReservations.holder, actor.id),
          opts.taskId === undefined ? undefined : eq(queueReservations.taskId, opts.taskId),
        ),
      )
      .returning({ taskId: queueReservations.taskId });
    if (opts.forgetSkips) await tx.delete(queueSkips).where(and(eq(queueSkips.queueId, queueId), eq(queueSkips.holder, actor.id)));
    if (released.length > 0 || opts.forgetSkips) {
      await recordAudit(tx, {
        actorId: actor.userId,
        actorLabel: actor.label,
        action: "queue.release",
        targetType: "queue",
        targetId: String(queueId),
        details: { task_ids: released.map((r) => r.taskId), forget_skips: opts.forgetSkips ?? false },
      });
    }
    return released.length;
  });
}

/** Skips a member for this reviewer: their hold is released and it is not handed to them again. */
export async function skipInQueue(db: Db, queueId: number, taskId: number, actor: Actor): Promise<boolean> {
  return db.transaction(async (tx) => {
    const [member] = await tx
      .select({ taskId: queueItems.taskId })
      .from(queueItems)
      .where(and(eq(queueItems.queueId, queueId), eq(queueItems.taskId, taskId)));
    if (!member) return false;
    await tx
      .delete(queueReservations)
      .where(and(eq(queueReservations.queueId, queueId), eq(queueReservations.taskId, taskId), eq(queueReservations.holder, actor.id)));
    await tx.insert(queueSkips).values({ queueId, taskId, holder: actor.id }).onConflictDoNothing();
    await recordAudit(tx, { actorId: actor.userId, actorLabel: actor.label, action: "queue.skip", targetType: "task", targetId: String(taskId), details: { queue_id: queueId } });
    return true;
  });
}
