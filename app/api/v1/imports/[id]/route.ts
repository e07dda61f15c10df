import { json, notFound, parseId } from "@/lib/api/http";
import { route } from "@/lib/api/route";
import { getImportStatus } from "@/lib/data/ingest";

export const dynamic = "force-dynamic";

/** One import: `status` running | done | unchanged | failed, its summary or error, and while it runs `progress: {done, total}`. */
export const GET = route<{ id: string }>("ingest", async ({ actor, params }) => {
  const id = parseId(params.id);
  const row = id === null ? null : await getImportStatus(actor, id);
  return row ? json(row) : notFound("import");
});
