// The data layer for saved baselines: anyone who reads may list and compare, a reviewer may save
// the statistics on screen, an admin may delete. Checked here for every call.
import { getDb } from "@/db/client";
import * as q from "@/db/queries/baselines";
import { authorize, type Actor } from "@/lib/auth/actor";
import type { BaselineSummaryJson, RoundSliceJson } from "@/lib/api/types";
import { computeRoundDetail } from "./rounds";

export async function listBaselines(actor: Actor | null) {
  authorize(actor, "read");
  return q.listBaselines(await getDb());
}

export async function getBaseline(actor: Actor | null, id: number) {
  authorize(actor, "read");
  return q.getBaseline(await getDb(), id);
}

export type SaveBaselineResult =
  | { ok: true; baseline: BaselineSummaryJson }
  | { ok: false; problem: "run_not_found" | "name_taken" | "empty_slice"; message: string };

/**
 * Saves the statistics the Rounds page shows for this run and slice, computed here by the server:
 * a baseline holds the database's numbers, never numbers sent by the browser.
 */
export async function saveBaseline(actor: Actor | null, input: { name: string; run: string; slice: RoundSliceJson }): Promise<SaveBaselineResult> {
  const saver = authorize(actor, "review");
  const db = await getDb();
  const stats = await computeRoundDetail(db, input.run, input.slice);
  if (!stats) return { ok: false, problem: "run_not_found", message: `run "${input.run}" not found` };
  if (stats.rounds.length === 0) return { ok: false, problem: "empty_slice", message: "no tasks in this slice: nothing to save" };
  const baseline = await q.createBaseline(db, { name: input.name, stats }, saver);
  if (!baseline) return { ok: false, problem: "name_taken", message: `a baseline named "${input.name}" exists already` };
  return { ok: true, baseline };
}

/** False when there is no such baseline. */
export async function deleteBaseline(actor: Actor | null, id: number): Promise<boolean> {
  const admin = authorize(actor, "admin");
  return q.deleteBaseline(await getDb(), id, admin);
}
