// Round statistics for the Rounds page, the Overview and the API, cached per (run, slice), and
// the run's seed families (the page's slice menu) cached per run.
// The cache key includes a data version read on every call (the run's latest import, the latest
// review, and the version of the run's rollups, which the database bumps on every UPDATE that
// changes a task's statistics — bulk decisions and plain UPDATEs included), so an ingest or a
// review invalidates it without any explicit hook; a stale entry simply ages out of the LRU.
// Behind the cache, every slice without a seed family is read from the run's rollups
// (db/queries/rollups.ts); the CLI's `stats` and the Overview go through the same code.
import { getDb, type Db } from "@/db/client";
import * as stats from "@/db/queries/stats";
import { authorize, type Actor } from "@/lib/auth/actor";
import type { RoundSliceJson, RunRoundDetailJson, SeedFamilyJson } from "@/lib/api/types";
import { Lru } from "@/lib/rounds/lru";
import { sliceKey } from "@/lib/rounds/url-state";

const cache = new Lru<string, Promise<RunRoundDetailJson>>(200);
const seedCache = new Lru<string, Promise<SeedFamilyJson[]>>(50);

/** The promise is cached, so concurrent first requests share one computation; a failed one is
 * not remembered, and the next request tries again. */
function remember<T>(lru: Lru<string, Promise<T>>, key: string, compute: () => Promise<T>): Promise<T> {
  const hit = lru.get(key);
  if (hit) return hit;
  const pending = compute();
  lru.set(key, pending);
  pending.catch(() => lru.delete(key));
  return pending;
}

/** Computes (or reuses) the statistics of one run and slice; null for an unknown run. */
export async function computeRoundDetail(db: Db, run: string, slice: RoundSliceJson): Promise<RunRoundDetailJson | null> {
  const v = await stats.getRoundDataVersion(db, run);
  if (!v) return null;
  return remember(cache, `${v.version}|${run}|${sliceKey(slice)}`, () =>
    stats.getRoundDetailByRunId(db, v.runId, slice).then(
      (rounds): RunRoundDetailJson => ({ run, solver: stats.solverOf(v.meta), slice, data_version: v.version, rounds }),
    ),
  );
}

/** The run's seeds with the size of their families, cached like the statistics. */
export async function computeSeedFamilies(db: Db, run: string): Promise<SeedFamilyJson[]> {
  const v = await stats.getRoundDataVersion(db, run);
  if (!v) return [];
  return remember(seedCache, `${v.version}|${run}`, () => stats.listSeedFamilies(db, run));
}

export function clearRoundCache(): void {
  cache.clear();
  seedCache.clear();
}

export async function getRoundDetail(actor: Actor | null, run: string, slice: RoundSliceJson = {}): Promise<RunRoundDetailJson | null> {
  authorize(actor, "read");
  return computeRoundDetail(await getDb(), run, slice);
}

export async function listSeedFamilies(actor: Actor | null, run: string): Promise<SeedFamilyJson[]> {
  authorize(actor, "read");
  return computeSeedFamilies(await getDb(), run);
}
