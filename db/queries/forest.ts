// A run's forest: per-seed family sizes and depths, and where rejection concentrates (by operator,
// by round). Aggregates only, grouped by the database; nothing loads the run's tasks.
import { eq, sql } from "drizzle-orm";
import { execRows, type Db } from "../client";
import { runs } from "../schema";

export interface SeedFamily {
  id: number;
  task_id: string;
  size: number;
  accepted: number;
  rejected: number;
  max_depth: number;
  max_round: number | null;
  flagged: number;
}

export interface RejectionRow {
  key: string | number;
  accepted: number;
  rejected: number;
  /** The most frequent rejection reason of this group, if any. */
  top_reason: string | null;
}

export interface ForestJson {
  run: string;
  seeds: SeedFamily[];
  by_operator: RejectionRow[];
  by_round: RejectionRow[];
  /** Families reaching each depth (a family of depth 5 counts for 0..5). */
  depth_reach: { depth: number; families: number }[];
}

type Raw = Record<string, unknown>;
const int = (v: unknown) => Number(v ?? 0);

async function runId(db: Db, name: string): Promise<number | null> {
  const [run] = await db.select({ id: runs.id }).from(runs).where(eq(runs.name, name));
  return run?.id ?? null;
}

export async function getForest(db: Db, runName: string, seedLimit = 200): Promise<ForestJson | null> {
  const id = await runId(db, runName);
  if (id === null) return null;
  const [seedRows, opRows, roundRows, reachRows] = await Promise.all([
    execRows<Raw>(
      db,
      sql`SELECT s.id, s.ext_id AS task_id, f.size, f.accepted, f.rejected, f.max_depth, f.max_round, f.flagged
          FROM (SELECT root_id,
                  count(*)::int AS size,
                  (count(*) FILTER (WHERE status = 'accepted'))::int AS accepted,
                  (count(*) FILTER (WHERE status = 'rejected'))::int AS rejected,
                  max(depth)::int AS max_depth,
                  max(round)::int AS max_round,
                  (count(*) FILTER (WHERE open_flags > 0))::int AS flagged
                FROM tasks WHERE run_id = ${id} AND root_id IS NOT NULL GROUP BY root_id) f
          JOIN tasks s ON s.id = f.root_id
          ORDER BY f.accepted DESC, f.max_depth DESC, s.ext_id
          LIMIT ${seedLimit}`,
    ),
    execRows<Raw>(
      db,
      sql`SELECT operator AS key,
            (count(*) FILTER (WHERE status = 'accepted'))::int AS accepted,
            (count(*) FILTER (WHERE status = 'rejected'))::int AS rejected,
            mode() WITHIN GROUP (ORDER BY rejection_reason) FILTER (WHERE status = 'rejected') AS top_reason
          FROM tasks WHERE run_id = ${id} AND operator IS NOT NULL
          GROUP BY operator ORDER BY rejected DESC, operator`,
    ),
    execRows<Raw>(
      db,
      sql`SELECT round AS key,
            (count(*) FILTER (WHERE status = 'accepted'))::int AS accepted,
            (count(*) FILTER (WHERE status = 'rejected'))::int AS rejected,
            mode() WITHIN GROUP (ORDER BY rejection_reason) FILTER (WHERE status = 'rejected') AS top_reason
          FROM tasks WHERE run_id = ${id} AND round IS NOT NULL
          GROUP BY round ORDER BY round`,
    ),
    execRows<Raw>(
      db,
      sql`SELECT d.depth, count(*)::int AS families
          FROM (SELECT root_id, max(depth) AS max_depth FROM tasks
                WHERE run_id = ${id} AND status = 'accepted' AND root_id IS NOT NULL GROUP BY root_id) f
          CROSS JOIN LATERAL generate_series(0, f.max_depth) AS d(depth)
          GROUP BY d.depth ORDER BY d.depth`,
    ),
  ]);
  const rejection = (r: Raw): RejectionRow => ({
    key: typeof r.key === "string" ? r.key : int(r.key),
    accepted: int(r.accepted),
    rejected: int(r.rejected),
    top_reason: typeof r.top_reason === "string" ? r.top_reason : null,
  });
  return {
    run: runName,
    seeds: seedRows.map((r) => ({
      id: int(r.id),
      task_id: String(r.task_id),
      size: int(r.size),
      accepted: int(r.accepted),
      rejected: int(r.rejected),
      max_depth: int(r.max_depth),
      max_round: r.max_round === null || r.max_round === undefined ? null : int(r.max_round),
      flagged: int(r.flagged),
    })),
    by_operator: opRows.map(rejection),
    by_round: roundRows.map(rejection),
    depth_reach: reachRows.map((r) => ({ depth: int(r.depth), families: int(r.families) })),
  };
}
