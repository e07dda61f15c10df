import { canonicalFilter, viewPatchSchema } from "@/lib/api/bulk-schemas";
import { apiError, badRequest, json, notFound, parseId } from "@/lib/api/http";
import { readJson, route } from "@/lib/api/route";
import { deleteView, updateView } from "@/lib/data/views";

export const dynamic = "force-dynamic";

const refused = (problem: "not_found" | "forbidden" | "name_taken", name?: string) =>
  problem === "not_found"
    ? notFound("view")
    : problem === "forbidden"
      ? apiError(403, "forbidden", "only the view's creator or an admin may change it")
      : apiError(409, "name_taken", `a view named "${name ?? ""}" exists already`);

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
    const { query, ...rest } = parsed.data;
    let search: string | undefined;
    if (query !== undefined) {
      const canonical = canonicalFilter(query, ["sort", "limit"]);
      if (!canonical.ok) return apiError(400, "bad_filter", canonical.message, canonical.details);
      search = canonical.search;
    }
    const result = await updateView(actor, id, { ...rest, ...(search === undefined ? {} : { query: search }) });
    return result.ok ? json(result.view) : refused(result.problem, rest.name);
  },
  { body: "json" },
);

export const DELETE = route<{ id: string }>("review", async ({ actor, params }) => {
  const id = parseId(params.id);
  if (id === null) return notFound("view");
  const result = await deleteView(actor, id);
  return result.ok ? new Response(null, { status: 204 }) : refused(result.problem);
});
