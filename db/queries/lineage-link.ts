// A run's lineage tree in the database: parent ids, roots, depths and materialized paths derived
// from the parent links the tasks name. Imports (RunWriter.finish) and lineage inference use it.
import { sql } from "drizzle-orm";
import type { Db } from "../client";

/**
 * Resolves a run's parent links (parent_ext_id → parent_id; a link to no task of the run, or none,
 * clears it) and derives root, depth and materialized path, in the database. Rows already right
 * are left alone.
 */
export async function linkRunLineage(tx: Db, runId: number): Promise<void> {
  await tx.execute(sql`
    UPDATE tasks c SET parent_id = p.id
    FROM tasks p
    WHERE c.run_id = ${runId} AND p.run_id = ${runId}
      AND c.parent_ext_id = p.ext_id AND c.parent_id IS DISTINCT FROM p.id`);
  await tx.execute(sql`
    UPDATE tasks c SET parent_id = NULL
    WHERE c.run_id = ${runId} AND c.parent_id IS NOT NULL
      AND NOT EXISTS (SELECT 1 FROM tasks p WHERE p.id = c.parent_id AND p.run_id = ${runId} AND p.ext_id = c.parent_ext_id)`);
  await tx.execute(sql`
    WITH RECURSIVE tree AS (
      SELECT id, id AS root_id, 0 AS depth, '/' || id || '/' AS path
      FROM tasks WHERE run_id = ${runId} AND parent_id IS NULL
      UNION ALL
      SELECT c.id, tree.root_id, tree.depth + 1, tree.path || c.id || '/'
      FROM tasks c JOIN tree ON c.parent_id = tree.id
    )
    UPDATE tasks t SET root_id = tree.root_id, depth = tree.depth, path = tree.path
    FROM tree WHERE t.id = tree.id
      AND (t.root_id IS DISTINCT FROM tree.root_id OR t.depth <> tree.depth OR t.path <> tree.path)`);
}
