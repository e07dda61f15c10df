// Server only: the checks an import triggers. Before the import, a snapshot of the run's task
// content hashes and newest trial; after it commits, the tasks that are new, changed or got
// trials are checked with their neighbours. A failure is reported, never a lost import.
import type { Db } from "@/db/client";
import { changedSince, runSnapshot } from "@/db/queries/checks";
import { runChecks, type CheckSummary } from "./index";

export type ChecksSnapshot = Awaited<ReturnType<typeof runSnapshot>>;

export async function snapshotForChecks(db: Db, runName: string): Promise<ChecksSnapshot> {
  return runSnapshot(db, runName);
}

export async function checkAfterImport(
  db: Db,
  runId: number,
  before: ChecksSnapshot,
  actor?: { id: string | null; label: string },
): Promise<CheckSummary | null> {
  // A run imported for the first time is checked whole, in id order.
  if (before === null) return runChecks(db, { runId, actor });
  const ids = await changedSince(db, runId, before);
  if (ids.length === 0) return null;
  return runChecks(db, { runId, taskIds: ids, actor });
}
