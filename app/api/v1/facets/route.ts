import { getDb } from "@/db/client";
import { getFacets } from "@/db/queries/tasks";
import { json } from "@/lib/api/http";

export const dynamic = "force-dynamic";

export async function GET(req: Request): Promise<Response> {
  const run = new URL(req.url).searchParams.get("run") ?? undefined;
  return json(await getFacets(await getDb(), run || undefined));
}
