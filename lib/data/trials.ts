// Validation trials and their logs, for pages and routes: every function takes the actor and is
// refused unless the role may read.
import { getDb } from "@/db/client";
import * as trials from "@/db/queries/trials";
import { authorize, type Actor } from "@/lib/auth/actor";
import { diffText } from "@/lib/diff";
import { VERIFIER_LOG } from "@/lib/ingest/harbor-trial";
import { stripEscapes } from "@/lib/log/lines";
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

/** Verifier output above this many lines is compared by its first lines only (and says so). */
export const COMPARE_MAX_LINES = 20_000;

export interface TestOutcomeRow {
  name: string;
  a: string | null;
  b: string | null;
}

/**
 * Two trials of one task side by side: both trials, each test's outcome in either (the ones that
 * disagree first), and a diff of their verifier output as a reviewer sees it (colours stripped).
 */
export async function compareTrials(actor: Actor | null, taskId: number, aId: number, bId: number) {
  const db = await readDb(actor);
  const [a, b] = await Promise.all([trials.getTrial(db, aId), trials.getTrial(db, bId)]);
  if (!a || !b || a.task_id !== taskId || b.task_id !== taskId) return null;
  const outcomes = new Map<string, TestOutcomeRow>();
  for (const t of a.tests) outcomes.set(t.name, { name: t.name, a: t.status, b: null });
  for (const t of b.tests) outcomes.set(t.name, { name: t.name, a: outcomes.get(t.name)?.a ?? null, b: t.status });
  const tests = [...outcomes.values()].sort((x, y) => Number(x.a === x.b) - Number(y.a === y.b));
  const [textA, textB] = await Promise.all([verifierText(db, aId), verifierText(db, bId)]);
  const verifier = textA === null && textB === null ? null : { diff: diffText(textA?.text ?? null, textB?.text ?? null), clipped: Boolean(textA?.clipped || textB?.clipped) };
  return { a, b, tests, verifier };
}

async function verifierText(db: Awaited<ReturnType<typeof readDb>>, trialId: number) {
  const meta = await trials.getLogMeta(db, trialId, VERIFIER_LOG);
  if (!meta) return null;
  const range = await trials.readLogRange(db, meta, 0, COMPARE_MAX_LINES);
  const text = range.lines.map(stripEscapes).join("\n");
  return { text: range.lines.length > 0 ? `${text}\n` : "", clipped: meta.lines > COMPARE_MAX_LINES };
}

export async function getRunValidation(actor: Actor | null, run: string) {
  return trials.runValidation(await readDb(actor), run);
}
