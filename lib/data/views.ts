// The data layer for saved views: anyone who reads sees the shared views (and their own) with
// counts; a reviewer or an admin saves them; the creator or an admin renames and deletes.
// Queries are stored canonical (lib/api/bulk-schemas.ts): an unknown filter key is refused.
import { getDb } from "@/db/client";
import * as q from "@/db/queries/views";
import { canonicalFilter, type FilterInput } from "@/lib/api/bulk-schemas";
import { authorize, type Actor } from "@/lib/auth/actor";

export type ViewResult = q.ViewResult | { ok: false; problem: "bad_filter"; message: string; details?: unknown };

export async function listViews(actor: Actor | null) {
  const reader = authorize(actor, "read");
  return q.listViews(await getDb(), reader);
}

/** `/tasks?view=<id>` opens the view's own URL. */
export async function getViewQuery(actor: Actor | null, id: number) {
  const reader = authorize(actor, "read");
  return q.getViewQuery(await getDb(), id, reader);
}

/** A view keeps its sort and page size; the page cursor is dropped. */
function canonicalQuery(query: FilterInput) {
  return canonicalFilter(query, ["sort", "limit"]);
}

export async function createView(actor: Actor | null, input: { name: string; query: FilterInput; shared?: boolean }): Promise<ViewResult> {
  const saver = authorize(actor, "review");
  const c = canonicalQuery(input.query);
  if (!c.ok) return { ok: false, problem: "bad_filter", message: c.message, details: c.details };
  return q.createView(await getDb(), { name: input.name, query: c.search, shared: input.shared ?? true }, saver);
}

export async function updateView(actor: Actor | null, id: number, patch: { name?: string; query?: FilterInput; shared?: boolean }): Promise<ViewResult> {
  const editor = authorize(actor, "review");
  const { query, ...rest } = patch;
  let search: string | undefined;
  if (query !== undefined) {
    const c = canonicalQuery(query);
    if (!c.ok) return { ok: false, problem: "bad_filter", message: c.message, details: c.details };
    search = c.search;
  }
  return q.updateView(await getDb(), id, search === undefined ? rest : { ...rest, query: search }, editor);
}

export async function deleteView(actor: Actor | null, id: number) {
  const editor = authorize(actor, "review");
  return q.deleteView(await getDb(), id, editor);
}
