// Validation trials and their logs, for pages and routes: every function takes the actor and is
// refused unless the role may read.
import { getDb } from "@/db/client";
import * as trials from "@/db/queries/trials";
import { authorize, type Actor } from "@/lib/auth/actor";
import { LogSearch, type LogQuery } from "@/lib/log/search";

async function readDb(actor: Actor | null) {
  authorize(actor, "read");
  return getDb();
}

export async function listTaskTrials(actor: Actor | null, taskId: number) {
  return trials.listTaskTrials(await readDb(actor), taskId);
}

export async function getTrial(actor: Actor | null, trialId: number) {
  return trials.getTrial(await readDb(actor), trialId);
}

export async function getTrialLogMeta(actor: Actor | null, trialId: number, name: string) {
  return trials.getLogMeta(await readDb(actor), trialId, name);
}

/** Lines [from, to) of a log (clamped to the log and to MAX_RANGE_LINES by the caller), or null. */
export async function getLogRange(actor: Actor | null, trialId: number, name: string, from: number, to: number) {
  const db = await readDb(actor);
  const meta = await trials.getLogMeta(db, trialId, name);
  return meta ? trials.readLogRange(db, meta, from, to) : null;
}

/** Throws LogSearchError for a query that cannot run (bad or slow pattern). */
export async function searchTrialLog(actor: Actor | null, trialId: number, name: string, query: LogQuery) {
  const db = await readDb(actor);
  const meta = await trials.getLogMeta(db, trialId, name);
  if (!meta) return null;
  const search = new LogSearch(query);
  return { name: meta.name, total_lines: meta.lines, ...(await trials.searchLog(db, meta, search)) };
}

export async function getTrialLogBytes(actor: Actor | null, trialId: number, name: string) {
  const db = await readDb(actor);
  const meta = await trials.getLogMeta(db, trialId, name);
  return meta ? { meta, bytes: await trials.readLogBytes(db, meta) } : null;
}
