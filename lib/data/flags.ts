// The data layer for flags: anyone who reads sees them and their counts; a reviewer or an admin
// (or a token with one of those roles) raises, resolves, dismisses and reopens. Checked here.
import { getDb } from "@/db/client";
import * as q from "@/db/queries/flags";
import type { FlagChange, FlagQueryParams, NewFlag } from "@/lib/api/flag-schemas";
import { authorize, type Actor } from "@/lib/auth/actor";
import type { FlagSource } from "@/lib/flags/types";

export type { SetFlagStatusResult } from "@/db/queries/flags";

export async function listFlags(actor: Actor | null, p: FlagQueryParams) {
  authorize(actor, "read");
  return q.listFlags(await getDb(), {
    run: p.run,
    rule: p.rule,
    status: p.status,
    source: p.source,
    severity: p.severity,
    round: p.round,
    operator: p.operator,
    taskId: p.task,
    before: p.cursor,
    limit: p.limit,
  });
}

/** Every flag of one task (open, outdated, resolved, dismissed), newest first. */
export async function listTaskFlags(actor: Actor | null, taskId: number) {
  authorize(actor, "read");
  return (await q.listFlags(await getDb(), { taskId, limit: 500 })).items;
}

export async function getFlag(actor: Actor | null, id: number) {
  authorize(actor, "read");
  return q.getFlag(await getDb(), id);
}

export async function countFlags(actor: Actor | null, p: { run?: string; source?: FlagSource }) {
  authorize(actor, "read");
  return q.countFlags(await getDb(), p);
}

/** A manual flag on the task's current content; null when there is no such task. */
export async function createManualFlag(actor: Actor | null, taskId: number, flag: NewFlag) {
  const reviewer = authorize(actor, "flag");
  return q.createManualFlag(await getDb(), { taskId, message: flag.note, severity: flag.severity, evidence: flag.evidence }, reviewer);
}

export async function setFlagStatus(actor: Actor | null, id: number, change: FlagChange) {
  const reviewer = authorize(actor, "flag");
  return q.setFlagStatus(await getDb(), id, { status: change.status, reason: change.reason ? change.reason : null }, reviewer);
}
