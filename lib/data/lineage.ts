// The data layer for lineage inference (C12): admins (it reshapes what was imported, as an import
// does), audited with the actor who asked.
import { getDb } from "@/db/client";
import { findRun } from "@/db/queries/checks";
import { authorize, type Actor } from "@/lib/auth/actor";
import { inferRunLineage, type InferenceSummary } from "@/lib/lineage/run";

/** Infers the run's lineage; null when there is no such run. Throws InferenceRefused for a run
 * whose lineage was declared. */
export async function inferLineage(actor: Actor | null, runName: string, opts: { dryRun?: boolean } = {}): Promise<InferenceSummary | null> {
  const who = authorize(actor, "ingest");
  const db = await getDb();
  const [run] = await findRun(db, runName);
  if (!run) return null;
  return inferRunLineage(db, run, { dryRun: opts.dryRun, actor: { id: who.userId, label: who.label } });
}
