import { json, notFound, parseId } from "@/lib/api/http";
import { route } from "@/lib/api/route";
import { getTrial } from "@/lib/data/trials";

export const dynamic = "force-dynamic";

/** One trial, with its task and run. */
export const GET = route<{ id: string }>("read", async ({ actor, params }) => {
  const id = parseId(params.id);
  const trial = id === null ? null : await getTrial(actor, id);
  return trial ? json(trial) : notFound("trial");
});
