import { json } from "@/lib/api/http";
import { route } from "@/lib/api/route";
import { getFacets } from "@/lib/data/read";

export const dynamic = "force-dynamic";

export const GET = route("read", async ({ actor, req }) => {
  const run = new URL(req.url).searchParams.get("run") ?? undefined;
  return json(await getFacets(actor, run || undefined));
});
