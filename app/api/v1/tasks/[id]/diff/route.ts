import { z } from "zod";
import { apiError, badRequest, json, notFound, parseId } from "@/lib/api/http";
import { route } from "@/lib/api/route";
import { loadTaskTexts, resolveDiffPair } from "@/lib/data/diff";
import { diffFiles } from "@/lib/diff";

export const dynamic = "force-dynamic";

const querySchema = z
  .object({
    against: z.string().regex(/^[1-9]\d{0,9}$/, "a task id").optional(),
    file: z.string().min(1).max(4096).optional(),
    context: z.coerce.number().int().min(0).max(1000).optional(),
  })
  .strict();

/**
 * The structured diff of a task against `against` (default: its parent). The older task of a
 * related pair is `from`, so a descendant as `against` gives task → descendant.
 */
export const GET = route<{ id: string }>("read", async ({ actor, req, params }) => {
  const id = parseId(params.id);
  if (id === null) return notFound("task");
  const parsed = querySchema.safeParse(Object.fromEntries(new URL(req.url).searchParams));
  if (!parsed.success) return badRequest(parsed.error);
  const q = parsed.data;
  const againstId = q.against === undefined ? null : parseId(q.against);
  if (q.against !== undefined && againstId === null) return notFound("task");
  const resolved = await resolveDiffPair(actor, id, againstId);
  if (!resolved.ok) {
    if (resolved.reason === "no-parent") return apiError(400, "bad_request", "this task is a seed: it has no parent; pass `against`");
    return notFound("task");
  }
  const { from, to } = resolved.pair;
  const [a, b] = await Promise.all([loadTaskTexts(actor, from.id), loadTaskTexts(actor, to.id)]);
  let result = diffFiles(a.files, b.files, { context: q.context ?? 3 });
  if (q.file !== undefined) {
    const only = result.files.filter((f) => f.path === q.file);
    if (only.length === 0) return notFound("file");
    result = { ...result, files: only };
  }
  return json({
    from: from.id,
    to: to.id,
    from_task_id: from.task_id,
    to_task_id: to.task_id,
    relation: resolved.pair.relation,
    counts: result.counts,
    files: result.files.map((f) => ({ ...f, binary: a.binary.has(f.path) || b.binary.has(f.path) })),
  });
});
