// Flags: automatic findings of the consistency checks and reviewers' manual flags, each tied to
// the content hash it was raised on.
import { sql } from "drizzle-orm";
import type { Db } from "../client";

/**
 * Recounts tasks.open_flags for the given tasks: open manual flags, and open automatic flags raised
 * on the task's current content (a flag on an older revision no longer counts).
 */
export async function refreshOpenFlags(db: Db, taskIds: readonly number[]): Promise<void> {
  if (taskIds.length === 0) return;
  await db.execute(sql`
    UPDATE tasks t SET open_flags = coalesce((
      SELECT count(*)::int FROM flags f
      WHERE f.task_id = t.id AND f.status = 'open' AND (f.source = 'manual' OR f.content_hash = t.content_hash)
    ), 0)
    WHERE t.id = ANY(${sql.raw(`'{${taskIds.map((id) => Math.trunc(id)).join(",")}}'`)}::int[])`);
}
