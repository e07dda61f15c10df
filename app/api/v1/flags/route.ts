import { parseFlagQuery } from "@/lib/api/flag-schemas";
import { badRequest, json } from "@/lib/api/http";
import { route } from "@/lib/api/route";
import { listFlags } from "@/lib/data/flags";

export const dynamic = "force-dynamic";

/** Flags newest first, filtered by run, rule, status, source, severity, round, operator or task. */
export const GET = route("read", async ({ actor, req }) => {
  const parsed = parseFlagQuery(new URL(req.url).searchParams);
  if (!parsed.success) return badRequest(parsed.error);
  const page = await listFlags(actor, parsed.data);
  return json({ items: page.items, next: page.next === null ? null : String(page.next) });
});
