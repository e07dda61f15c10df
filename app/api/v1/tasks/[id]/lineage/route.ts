import { z } from "zod";
import { badRequest, json, notFound, parseId } from "@/lib/api/http";
import { route } from "@/lib/api/route";
import { getLineage } from "@/lib/data/read";

export const dynamic = "force-dynamic";

const querySchema = z.object({
  descendants: z.enum(["0", "1", "true", "false"]).optional(),
  depth: z.coerce.number().int().min(0).max(1000).optional(),
  limit: z.coerce.number().int().min(1).max(20_000).default(5000),
});

/** Ancestors from the seed, and with `descendants=1` the subtree (breadth first, capped by `limit`). */
export const GET = route<{ id: string }>("read", async ({ actor, req, params }) => {
  const id = parseId(params.id);
  if (id === null) return notFound("task");
  const parsed = querySchema.safeParse(Object.fromEntries(new URL(req.url).searchParams));
  if (!parsed.success) return badRequest(parsed.error);
  const q = parsed.data;
  const result = await getLineage(actor, id, { descendants: q.descendants === "1" || q.descendants === "true", maxDepth: q.depth, limit: q.limit });
  return result ? json(result) : notFound("task");
});
