// Saved views: a name for a task-table query string. Listed with the number of tasks each
// matches now, counted as the table counts (capped, lib/tasks/total.ts), one query per view.
import { and, asc, eq, or, sql } from "drizzle-orm";
import type { SavedViewJson } from "@/lib/api/types";
import type { Actor } from "@/lib/auth/actor";
import { can } from "@/lib/auth/permissions";
import { parseTaskFilter, type TaskFilter } from "@/lib/tasks/filter";
import { countCap, totalFromCappedCount, type TotalCount } from "@/lib/tasks/total";
import type { Db } from "../client";
import { savedViews, tasks, type SavedView } from "../schema";
import { recordAudit } from "./audit";
import { phraseScope, planTextSearch, searchPlans } from "./task-search";
import { countMatches } from "./tasks";

/** How many tasks match `filter`: the task table's capped count (a lower bound past the cap). */
export async function countTasks(db: Db, filter: TaskFilter): Promise<TotalCount> {
  const cap = countCap(filter);
  // A text search planned as the table's (db/queries/tasks.ts listTasks).
  const n = filter.q
    ? await db.transaction(async (tx) => {
        const q = tx as unknown as Db;
        await planTextSearch(q);
        const scope = await phraseScope(q, filter.q ?? "");
        const [plan] = await searchPlans(q, filter.q ?? "", [cap + 1], scope);
        return countMatches(q, filter, cap + 1, plan ?? "set", scope);
      })
    : await countMatches(db, filter, cap + 1, "set");
  return totalFromCappedCount(n, cap);
}

async function toJson(db: Db, v: SavedView, actor: Actor): Promise<SavedViewJson> {
  const parsed = parseTaskFilter(new URLSearchParams(v.query));
  const total = parsed.ok ? await countTasks(db, parsed.filter) : null;
  return {
    id: v.id,
    name: v.name,
    query: v.query,
    shared: v.shared,
    created_by: v.createdByLabel,
    created_at: new Date(v.createdAt).toISOString(),
    mine: v.createdBy === actor.id,
    count: total ? total.total : null,
    count_is_estimate: total?.isEstimate ?? false,
  };
}

/** What the actor can see: every shared view and their own, by name. */
export async function listViews(db: Db, actor: Actor): Promise<SavedViewJson[]> {
  const rows = await db
    .select()
    .from(savedViews)
    .where(or(eq(savedViews.shared, true), eq(savedViews.createdBy, actor.id)))
    .orderBy(asc(sql`lower(${savedViews.name})`), asc(savedViews.id));
  const out: SavedViewJson[] = [];
  for (const v of rows) out.push(await toJson(db, v, actor));
  return out;
}

/** The query string of a view the actor can see, or null. */
export async function getViewQuery(db: Db, id: number, actor: Actor): Promise<string | null> {
  const [view] = await db
    .select({ query: savedViews.query })
    .from(savedViews)
    .where(and(eq(savedViews.id, id), or(eq(savedViews.shared, true), eq(savedViews.createdBy, actor.id))));
  return view?.query ?? null;
}

export type ViewResult = { ok: true; view: SavedViewJson } | { ok: false; problem: "not_found" | "forbidden" | "name_taken" };

/** `query` is canonical already (lib/api/bulk-schemas.ts canonicalFilter). */
export async function createView(db: Db, input: { name: string; query: string; shared: boolean }, actor: Actor): Promise<ViewResult> {
  const view = await db.transaction(async (tx) => {
    const [row] = await tx
      .insert(savedViews)
      .values({ name: input.name, query: input.query, shared: input.shared, createdBy: actor.id, createdByLabel: actor.label })
      .onConflictDoNothing()
      .returning();
    if (!row) return null;
    await recordAudit(tx, {
      actorId: actor.userId,
      actorLabel: actor.label,
      action: "view.create",
      targetType: "view",
      targetId: String(row.id),
      details: { name: row.name, query: row.query, shared: row.shared },
    });
    return row;
  });
  return view ? { ok: true, view: await toJson(db, view, actor) } : { ok: false, problem: "name_taken" };
}

/** A view the actor cannot see is not found; one they can see but did not make is theirs to change only as an admin. */
async function ownView(db: Db, id: number, actor: Actor): Promise<{ ok: true; view: SavedView } | { ok: false; problem: "not_found" | "forbidden" }> {
  const [view] = await db.select().from(savedViews).where(and(eq(savedViews.id, id), or(eq(savedViews.shared, true), eq(savedViews.createdBy, actor.id))));
  if (!view) return { ok: false, problem: "not_found" };
  if (view.createdBy !== actor.id && !can(actor.role, "admin")) return { ok: false, problem: "forbidden" };
  return { ok: true, view };
}

export async function updateView(db: Db, id: number, patch: { name?: string; query?: string; shared?: boolean }, actor: Actor): Promise<ViewResult> {
  const owned = await ownView(db, id, actor);
  if (!owned.ok) return owned;
  const updated = await db.transaction(async (tx) => {
    const clash = patch.name === undefined ? [] : await tx.select({ id: savedViews.id }).from(savedViews).where(and(eq(savedViews.createdBy, owned.view.createdBy), eq(savedViews.name, patch.name), sql`${savedViews.id} <> ${id}`));
    if (clash.length) return null;
    const [row] = await tx.update(savedViews).set(patch).where(eq(savedViews.id, id)).returning();
    if (!row) return null;
    await recordAudit(tx, {
      actorId: actor.userId,
      actorLabel: actor.label,
      action: "view.update",
      targetType: "view",
      targetId: String(id),
      details: { before: { name: owned.view.name, query: owned.view.query, shared: owned.view.shared }, after: patch },
    });
    return row;
  });
  return updated ? { ok: true, view: await toJson(db, updated, actor) } : { ok: false, problem: "name_taken" };
}

export async function deleteView(db: Db, id: number, actor: Actor): Promise<{ ok: true } | { ok: false; problem: "not_found" | "forbidden" }> {
  const owned = await ownView(db, id, actor);
  if (!owned.ok) return owned;
  await db.transaction(async (tx) => {
    await tx.delete(savedViews).where(eq(savedViews.id, id));
    await recordAudit(tx, {
      actorId: actor.userId,
      actorLabel: actor.label,
      action: "view.delete",
      targetType: "view",
      targetId: String(id),
      details: { name: owned.view.name, query: owned.view.query },
    });
  });
  return { ok: true };
}
