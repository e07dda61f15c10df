import { json, notFound } from "@/lib/api/http";
import { route } from "@/lib/api/route";
import { getRoundStats } from "@/lib/data/read";

export const dynamic = "force-dynamic";

export const GET = route<{ run: string }>("read", async ({ actor, params }) => {
  const run = decodeURIComponent(params.run);
  const stats = await getRoundStats(actor, run);
  return stats ? json(stats) : notFound(`run "${run}"`);
});
