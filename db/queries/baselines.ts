// Saved baselines: a run's round statistics for one slice, frozen under a name so that later runs
// (or the same run after re-imports and reviews) can be compared against them.
import { desc, eq, sql } from "drizzle-orm";
import type { Actor } from "@/lib/auth/actor";
import type { BaselineJson, BaselineSummaryJson, RoundSliceJson, RunRoundDetailJson } from "@/lib/api/types";
import { compactSlice, sliceSchema } from "@/lib/rounds/url-state";
import type { Db } from "../client";
import { baselines } from "../schema";
import { recordAudit } from "./audit";

const summaryColumns = {
  id: baselines.id,
  name: baselines.name,
  runName: baselines.runName,
  slice: baselines.slice,
  createdBy: baselines.createdBy,
  createdAt: baselines.createdAt,
  // Sizes for the list, read from the stored statistics without sending them along.
  rounds: sql<number>`jsonb_array_length(${baselines.stats}->'rounds')`.mapWith(Number),
  candidates: sql<number>`(SELECT coalesce(sum((r->>'candidates')::int), 0) FROM jsonb_array_elements(${baselines.stats}->'rounds') r)`.mapWith(Number),
};

type SummaryRow = { id: number; name: string; runName: string; slice: Record<string, unknown>; createdBy: string | null; createdAt: string; rounds: number; candidates: number };

/** Slices were validated before they were stored; anything unexpected is dropped, not trusted. */
function storedSlice(raw: Record<string, unknown>): RoundSliceJson {
  const parsed = sliceSchema.safeParse(raw);
  return parsed.success ? compactSlice(parsed.data) : {};
}

/** The statistics were computed by lib/data/rounds and stored as they were: the one cast. */
function storedStats(raw: Record<string, unknown>): RunRoundDetailJson {
  return raw as unknown as RunRoundDetailJson;
}

function toSummary(r: SummaryRow): BaselineSummaryJson {
  return {
    id: r.id,
    name: r.name,
    run: r.runName,
    slice: storedSlice(r.slice),
    created_by: r.createdBy,
    created_at: new Date(r.createdAt).toISOString(),
    rounds: r.rounds,
    candidates: r.candidates,
  };
}

/** Newest first. A team keeps a handful of baselines, so the list is not paginated. */
export async function listBaselines(db: Db): Promise<BaselineSummaryJson[]> {
  const rows = await db.select(summaryColumns).from(baselines).orderBy(desc(baselines.createdAt), desc(baselines.id));
  return rows.map(toSummary);
}

export async function getBaseline(db: Db, id: number): Promise<BaselineJson | null> {
  const [row] = await db.select({ ...summaryColumns, stats: baselines.stats }).from(baselines).where(eq(baselines.id, id));
  return row ? { ...toSummary(row), stats: storedStats(row.stats) } : null;
}

export interface NewBaseline {
  name: string;
  stats: RunRoundDetailJson;
}

/** Saves the statistics under a new name; null when the name is taken (nothing is written). */
export async function createBaseline(db: Db, input: NewBaseline, actor: Actor): Promise<BaselineSummaryJson | null> {
  const { run, slice } = input.stats;
  return db.transaction(async (tx) => {
    const [row] = await tx
      .insert(baselines)
      .values({ name: input.name, runName: run, slice: { ...slice }, stats: { ...input.stats }, createdBy: actor.label })
      .onConflictDoNothing({ target: baselines.name })
      .returning({ id: baselines.id });
    if (!row) return null;
    await recordAudit(tx, {
      actorId: actor.userId,
      actorLabel: actor.label,
      action: "baseline.create",
      targetType: "baseline",
      targetId: String(row.id),
      details: { name: input.name, run, slice, data_version: input.stats.data_version },
    });
    const [created] = await tx.select(summaryColumns).from(baselines).where(eq(baselines.id, row.id));
    if (!created) throw new Error("baseline insert returned nothing");
    return toSummary(created);
  });
}

/** False when there is no such baseline (nothing to delete, nothing audited). */
export async function deleteBaseline(db: Db, id: number, actor: Actor): Promise<boolean> {
  return db.transaction(async (tx) => {
    const [row] = await tx.delete(baselines).where(eq(baselines.id, id)).returning({ name: baselines.name, run: baselines.runName });
    if (!row) return false;
    await recordAudit(tx, { actorId: actor.userId, actorLabel: actor.label, action: "baseline.delete", targetType: "baseline", targetId: String(id), details: row });
    return true;
  });
}
