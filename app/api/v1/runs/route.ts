import { getDb } from "@/db/client";
import { listRuns } from "@/db/queries/runs";
import { json } from "@/lib/api/http";

export const dynamic = "force-dynamic";

export async function GET(): Promise<Response> {
  const items = await listRuns(await getDb());
  return json({ items, next: null, total: items.length });
}
