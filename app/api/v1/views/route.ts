import { newViewSchema } from "@/lib/api/bulk-schemas";
import { apiError, badRequest, json } from "@/lib/api/http";
import { readJson, route } from "@/lib/api/route";
import { createView, listViews } from "@/lib/data/views";

export const dynamic = "force-dynamic";

/** Shared views and the asker's own, by name, each with the count of tasks it matches now. */
export const GET = route("read", async ({ actor }) => {
  const items = await listViews(actor);
  return json({ items, next: null, total: items.length });
});

/** Saves a filter under a name: 201 with the view, 409 when the asker has a view of that name. */
export const POST = route(
  "review",
  async ({ actor, req }) => {
    const body = await readJson(req);
    if (!body.ok) return body.response;
    const parsed = newViewSchema.safeParse(body.body);
    if (!parsed.success) return badRequest(parsed.error);
    const result = await createView(actor, parsed.data);
    if (result.ok) return json(result.view, { status: 201 });
    if (result.problem === "bad_filter") return apiError(400, "bad_filter", result.message, result.details);
    return apiError(409, "name_taken", `you have a view named "${parsed.data.name}" already`);
  },
  { body: "json" },
);
