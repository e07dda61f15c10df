import { viewPatchSchema } from "@/lib/api/bulk-schemas";
import { apiError, badRequest, json, notFound, parseId } from "@/lib/api/http";
import { readJson, route } from "@/lib/api/route";
import { deleteView, updateView, type ViewResult } from "@/lib/data/views";

export const dynamic = "force-dynamic";

function refused(result: Exclude<ViewResult, { ok: true }>, name?: string): Response {
  switch (result.problem) {
    case "not_found":
      return notFound("view");
    case "forbidden":
      return apiError(403, "forbidden", "only the view's creator or an admin may change it");
    case "bad_filter":
      return apiError(400, "bad_filter", result.message, result.details);
    case "name_taken":
      return apiError(409, "name_taken", `a view named "${name ?? ""}" exists already`);
  }
}

/** Renames, re-filters or (un)shares a view: its creator or an admin. */
export const PATCH = route<{ id: string }>(
  "review",
  async ({ actor, params, req }) => {
    const id = parseId(params.id);
    if (id === null) return notFound("view");
    const body = await readJson(req);
    if (!body.ok) return body.response;
    const parsed = viewPatchSchema.safeParse(body.body);
    if (!parsed.success) return badRequest(parsed.error);
    const result = await updateView(actor, id, parsed.data);
    return result.ok ? json(result.view) : refused(result, parsed.data.name);
  },
  { body: "json" },
);

export const DELETE = route<{ id: string }>("review", async ({ actor, params }) => {
  const id = parseId(params.id);
  if (id === null) return notFound("view");
  const result = await deleteView(actor, id);
  return result.ok ? new Response(null, { status: 204 }) : refused(result);
});
