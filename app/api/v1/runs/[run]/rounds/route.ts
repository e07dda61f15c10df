import { getDb } from "@/db/client";
import { getRoundStats } from "@/db/queries/stats";
import { json, notFound } from "@/lib/api/http";

export const dynamic = "force-dynamic";

export async function GET(_req: Request, ctx: { params: Promise<{ run: string }> }): Promise<Response> {
  const { run } = await ctx.params;
  const stats = await getRoundStats(await getDb(), decodeURIComponent(run));
  return stats ? json(stats) : notFound(`run "${run}"`);
}
