import { badRequest, json, notFound } from "@/lib/api/http";
import { route } from "@/lib/api/route";
import { getRoundDetail } from "@/lib/data/rounds";
import { parseSlice } from "@/lib/rounds/url-state";

export const dynamic = "force-dynamic";

/** Everything the Rounds page shows for one run, optionally sliced (category, operator, root, review). */
export const GET = route<{ run: string }>("read", async ({ actor, params, req }) => {
  const run = decodeURIComponent(params.run);
  const slice = parseSlice(new URL(req.url).searchParams);
  if (!slice.ok) return badRequest(slice.error);
  const stats = await getRoundDetail(actor, run, slice.slice);
  return stats ? json(stats) : notFound(`run "${run}"`);
});
