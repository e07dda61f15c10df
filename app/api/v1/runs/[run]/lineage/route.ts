// POST infers the lineage of a run that arrived without one (C12): `{"dry_run": true}` reports
// what would be linked without writing. Admin (or an admin token), as for imports.
import { z } from "zod";
import { apiError, badRequest, json, notFound } from "@/lib/api/http";
import { readJson, route } from "@/lib/api/route";
import { inferLineage } from "@/lib/data/lineage";
import type { LineageInferenceJson } from "@/lib/api/types";
import { InferenceRefused } from "@/lib/lineage/run";

export const dynamic = "force-dynamic";

const inferSchema = z.strictObject({ dry_run: z.boolean().default(false) });

export const POST = route<{ run: string }>("ingest", async ({ actor, params, req }) => {
  const body = await readJson(req);
  if (!body.ok) return body.response;
  const parsed = inferSchema.safeParse(body.body);
  if (!parsed.success) return badRequest(parsed.error);
  const run = decodeURIComponent(params.run);
  try {
    const s = await inferLineage(actor, run, { dryRun: parsed.data.dry_run });
    if (!s) return notFound(`run "${run}"`);
    return json({
      run: s.run,
      tasks: s.tasks,
      linked: s.linked,
      roots: s.roots,
      confidence: s.confidence,
      rounds_from_depth: s.roundsFromDepth,
      written: s.written,
      checks: s.checks ?? null,
      duration_ms: s.durationMs,
    } satisfies LineageInferenceJson);
  } catch (err) {
    if (err instanceof InferenceRefused) return apiError(409, "lineage_declared", err.message);
    throw err;
  }
});
