import { json } from "@/lib/api/http";
import { route } from "@/lib/api/route";
import { listRuns } from "@/lib/data/read";

export const dynamic = "force-dynamic";

export const GET = route("read", async ({ actor }) => {
  const items = await listRuns(actor);
  return json({ items, next: null, total: items.length });
});
