import { flagCountsQuerySchema } from "@/lib/api/flag-schemas";
import { badRequest, json } from "@/lib/api/http";
import { route } from "@/lib/api/route";
import { countFlags } from "@/lib/data/flags";

export const dynamic = "force-dynamic";

/** Per rule by status, and open flags per rule × round and rule × operator. */
export const GET = route("read", async ({ actor, req }) => {
  const parsed = flagCountsQuerySchema.safeParse(Object.fromEntries(new URL(req.url).searchParams));
  if (!parsed.success) return badRequest(parsed.error);
  return json(await countFlags(actor, parsed.data));
});
