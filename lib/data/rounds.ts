// Round statistics for the Rounds page, the Overview and the API, cached per (run, slice).
// The cache key includes a data version read on every call (the run's latest import and the
// latest review), so an ingest or a review invalidates it without any explicit hook; a stale
// entry simply ages out of the LRU.
import { getDb, type Db } from "@/db/client";
import * as stats from "@/db/queries/stats";
import { authorize, type Actor } from "@/lib/auth/actor";
import type { RoundSliceJson, RunRoundDetailJson, SeedFamilyJson } from "@/lib/api/types";
import { Lru } from "@/lib/rounds/lru";
import { sliceKey } from "@/lib/rounds/url-state";

const cache = new Lru<string, Promise<RunRoundDetailJson>>(200);

/** Computes (or reuses) the statistics of one run and slice; null for an unknown run. */
export async function computeRoundDetail(db: Db, run: string, slice: RoundSliceJson): Promise<RunRoundDetailJson | null> {
  const v = await stats.getRoundDataVersion(db, run);
  if (!v) return null;
  const key = `${v.version}|${run}|${sliceKey(slice)}`;
  const hit = cache.get(key);
  if (hit) return hit;
  // The promise is cached, so concurrent first requests share one computation.
  const pending = stats.getRoundDetailByRunId(db, v.runId, slice).then(
    (rounds): RunRoundDetailJson => ({ run, solver: stats.solverOf(v.meta), slice, data_version: v.version, rounds }),
  );
  cache.set(key, pending);
  // A failed computation is not remembered: the next request tries again.
  pending.catch(() => cache.delete(key));
  return pending;
}

export function clearRoundCache(): void {
  cache.clear();
}

export async function getRoundDetail(actor: Actor | null, run: string, slice: RoundSliceJson = {}): Promise<RunRoundDetailJson | null> {
  authorize(actor, "read");
  return computeRoundDetail(await getDb(), run, slice);
}

export async function listSeedFamilies(actor: Actor | null, run: string): Promise<SeedFamilyJson[]> {
  authorize(actor, "read");
  return stats.listSeedFamilies(await getDb(), run);
}
