// The data layer for saved views: anyone who reads sees the shared views (and their own) with
// counts; a reviewer or an admin saves them; the creator or an admin renames and deletes.
import { getDb } from "@/db/client";
import * as q from "@/db/queries/views";
import { authorize, type Actor } from "@/lib/auth/actor";

export type { ViewResult } from "@/db/queries/views";

export async function listViews(actor: Actor | null) {
  const reader = authorize(actor, "read");
  return q.listViews(await getDb(), reader);
}

/** `query` is canonical (lib/api/bulk-schemas.ts canonicalFilter). */
export async function createView(actor: Actor | null, input: { name: string; query: string; shared?: boolean }) {
  const saver = authorize(actor, "review");
  return q.createView(await getDb(), { name: input.name, query: input.query, shared: input.shared ?? true }, saver);
}

export async function updateView(actor: Actor | null, id: number, patch: { name?: string; query?: string; shared?: boolean }) {
  const editor = authorize(actor, "review");
  return q.updateView(await getDb(), id, patch, editor);
}

export async function deleteView(actor: Actor | null, id: number) {
  const editor = authorize(actor, "review");
  return q.deleteView(await getDb(), id, editor);
}
