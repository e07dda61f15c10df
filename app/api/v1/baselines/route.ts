import { newBaselineSchema } from "@/lib/api/baseline-schemas";
import { apiError, badRequest, json } from "@/lib/api/http";
import { readJson, route } from "@/lib/api/route";
import { listBaselines, saveBaseline } from "@/lib/data/baselines";
import { compactSlice } from "@/lib/rounds/url-state";

export const dynamic = "force-dynamic";

const STATUS = { run_not_found: 404, name_taken: 409, empty_slice: 400 } as const;

export const GET = route("read", async ({ actor }) => {
  const items = await listBaselines(actor);
  return json({ items, next: null, total: items.length });
});

/** Saves the server's statistics of `run` and `slice` under `name`. */
export const POST = route("review", async ({ actor, req }) => {
  const body = await readJson(req);
  if (!body.ok) return body.response;
  const parsed = newBaselineSchema.safeParse(body.body);
  if (!parsed.success) return badRequest(parsed.error);
  const saved = await saveBaseline(actor, { name: parsed.data.name, run: parsed.data.run, slice: compactSlice(parsed.data.slice) });
  if (!saved.ok) return apiError(STATUS[saved.problem], saved.problem, saved.message);
  return json(saved.baseline, { status: 201 });
});
