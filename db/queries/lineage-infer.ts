// Lineage inference (C12) in the database: what the inference reads of a run (every task's
// solution) and how its links are written — in one transaction with the run's lineage columns,
// round rollups and audit row.
import { sql } from "drizzle-orm";
import type { InferredLineage } from "@/lib/domain";
import { storedText } from "@/lib/ingest/content";
import { execRows, type Db } from "../client";
import { tasks } from "../schema";
import { recordAudit } from "./audit";
import { chunks } from "./bulk";
import { linkRunLineage } from "./lineage-link";
import { withRoundRollups } from "./rollups";
import { storeRunCounts } from "./runs";

export const INFER_ACTION = "lineage-infer";
const SOLUTION = "solution/solve.sh";

export interface InferenceTask {
  id: number;
  extId: string;
  round: number | null;
  /** a parent link the pipeline declared (not inferred) */
  declaredParent: string | null;
  inferred: InferredLineage | null;
  solution: string | null;
  /** the instruction and the verifier's Python files, one after the other (what parts near ties) */
  context: string;
}

/** Every task of the run with its solution's text (null without one) and its context. */
export async function inferenceTasks(db: Db, runId: number): Promise<InferenceTask[]> {
  const rows = await execRows<{ id: number; ext_id: string; round: number | null; parent_ext_id: string | null; lineage_inferred: InferredLineage | null; encoding: "utf8" | "base64" | null; content: string | null; context: string | null }>(
    db,
    sql`SELECT t.id, t.ext_id, t.round, t.parent_ext_id, t.lineage_inferred, b.encoding, b.content,
          (SELECT string_agg(cb.content, E'\n' ORDER BY cf.path)
             FROM task_files cf JOIN blobs cb ON cb.hash = cf.blob_hash
             WHERE cf.task_id = t.id AND cb.encoding = 'utf8' AND (cf.path = 'instruction.md' OR cf.path LIKE 'tests/%.py')) AS context
        FROM tasks t
        LEFT JOIN task_files f ON f.task_id = t.id AND f.path = ${SOLUTION}
        LEFT JOIN blobs b ON b.hash = f.blob_hash
        WHERE t.run_id = ${runId}
        ORDER BY t.id`,
  );
  return rows.map((r) => ({
    id: Number(r.id),
    extId: r.ext_id,
    round: r.round === null ? null : Number(r.round),
    declaredParent: r.lineage_inferred === null ? r.parent_ext_id : null,
    inferred: r.lineage_inferred,
    solution: r.encoding === null || r.content === null ? null : storedText({ encoding: r.encoding, content: r.content }),
    context: r.context ?? "",
  }));
}

export interface InferenceWrite {
  id: number;
  parent: string | null;
  evidence: InferredLineage;
  /** the round to store: the depth when the round was unknown, else the task's own */
  round: number | null;
}

/**
 * Writes the links, relinks the run's tree (parent ids, roots, depths, paths), rebuilds its round
 * rollups and stored counts, and records who inferred what, in one transaction.
 */
export async function writeInference(db: Db, runId: number, runName: string, links: InferenceWrite[], audit: { actorId: string | null; actorLabel: string; details: Record<string, unknown> }): Promise<void> {
  await db.transaction(async (tx) => {
    const q = tx as unknown as Db;
    await withRoundRollups(q, async () => {
      for (const part of chunks(links, 2000)) {
        await q.execute(sql`
          UPDATE tasks t SET parent_ext_id = v.parent, lineage_inferred = v.evidence, round = v.round
          FROM json_to_recordset(${JSON.stringify(part)}::json) AS v(id int, parent text, evidence jsonb, round int)
          WHERE t.id = v.id AND t.run_id = ${runId}`);
      }
      await linkRunLineage(q, runId);
      // Every parent changed: without fresh statistics the rollups below and the checks after
      // are planned for a run without parents (a batch of the checks read every task: 0.5 s).
      await q.execute(sql`ANALYZE ${tasks}`);
      return { runId, unchanged: false, counts: { tasksNew: 0, tasksChanged: links.length } };
    });
    // The runs list's seeds and rounds are stored with the run: they changed with the links.
    await storeRunCounts(q, runId);
    await recordAudit(q, { actorId: audit.actorId, actorLabel: audit.actorLabel, action: INFER_ACTION, targetType: "run", targetId: runName, details: audit.details });
  });
  // Every task row of the run was rewritten: the old versions cleared and the pages marked
  // all-visible again, as after an import (index-only scans for the counts and statistics).
  await db.execute(sql`VACUUM ${tasks}`);
}
