// Request bodies of `POST /api/v1/tasks/bulk` and `/api/v1/views`, and the one way a task-table
// filter given by a script or a saved view becomes canonical: unknown keys are an error, never
// dropped — a misspelt key silently ignored would widen a bulk action to more tasks than meant.
import { z } from "zod";
import { REJECT_REASONS, REVIEW_DECISIONS } from "@/lib/domain";
import { parseTaskFilter, taskFilterSchema, taskFilterToSearch, type TaskFilter } from "@/lib/tasks/filter";

const FILTER_KEYS: ReadonlySet<string> = new Set(Object.keys(taskFilterSchema.shape));
/** Keys about the page on screen, not about which tasks match. */
const PAGE_KEYS = ["cursor", "limit", "sort"] as const;

const filterInput = z.union([z.string().max(4000), z.record(z.string().max(100), z.union([z.string().max(1000), z.number(), z.boolean()]))]);
export type FilterInput = z.infer<typeof filterInput>;

export type CanonicalFilter = { ok: true; filter: TaskFilter; search: string } | { ok: false; message: string; details?: unknown };

/**
 * A filter (a query string, with or without `?`, or an object) as the task table reads it, and
 * its canonical query string. `keep` names the page keys that survive (a view keeps its sort).
 */
export function canonicalFilter(input: FilterInput, keep: readonly (typeof PAGE_KEYS)[number][] = []): CanonicalFilter {
  const params = typeof input === "string" ? new URLSearchParams(input.replace(/^\?/, "")) : new URLSearchParams();
  if (typeof input !== "string") for (const [k, v] of Object.entries(input)) params.set(k, String(v));
  const unknown = [...new Set(params.keys())].filter((k) => !FILTER_KEYS.has(k));
  if (unknown.length) return { ok: false, message: `unknown filter key${unknown.length > 1 ? "s" : ""}: ${unknown.join(", ")}` };
  const repeated = [...new Set(params.keys())].filter((k) => params.getAll(k).length > 1);
  if (repeated.length) return { ok: false, message: `a filter key given twice: ${repeated.join(", ")}` };
  for (const k of PAGE_KEYS) if (!keep.includes(k)) params.delete(k);
  const parsed = parseTaskFilter(params);
  if (!parsed.ok) return { ok: false, message: "invalid filter", details: parsed.error.issues.map((i) => ({ field: i.path.join("."), message: i.message })) };
  const filter = parsed.filter;
  const search = taskFilterToSearch(keep.includes("limit") ? filter : { ...filter, limit: undefined });
  return { ok: true, filter, search };
}

/** Whether a filter narrows the set at all: a bulk action on every task of every run is refused. */
export function hasCondition(filter: TaskFilter): boolean {
  return Object.entries(filter).some(([k, v]) => v !== undefined && !(PAGE_KEYS as readonly string[]).includes(k));
}

export const bulkRequestSchema = z
  .strictObject({
    filter: filterInput,
    decision: z.enum(REVIEW_DECISIONS),
    reason: z.enum(REJECT_REASONS).optional(),
    note: z.string().trim().max(10_000).optional(),
    /** The count the reviewer confirmed; optional here so that its absence is a 428, not a 400. */
    expected_count: z.number().int().min(0).max(10_000_000).optional(),
    /** Answer the count and a sample, write nothing. */
    dry_run: z.boolean().optional(),
    /** Any unique string per intended action: a repeat with the same key is answered, not applied. */
    idempotency_key: z
      .string()
      .regex(/^[\w.:-]{8,100}$/, "8–100 letters, digits, _ . : -")
      .optional(),
  })
  .refine((r) => r.decision !== "reject" || r.reason !== undefined, { message: "a rejection needs a reason", path: ["reason"] })
  .refine((r) => r.decision === "reject" || r.reason === undefined, { message: "only a rejection has a reason", path: ["reason"] });

export type BulkRequest = z.infer<typeof bulkRequestSchema>;

const viewName = z.string().trim().min(1).max(100);

export const newViewSchema = z.strictObject({
  name: viewName,
  /** The task table's query string (`run=demo&review=unreviewed`), or the filter as an object. */
  query: filterInput,
  shared: z.boolean().optional(),
});

export const viewPatchSchema = z
  .strictObject({ name: viewName.optional(), query: filterInput.optional(), shared: z.boolean().optional() })
  .refine((p) => p.name !== undefined || p.query !== undefined || p.shared !== undefined, { message: "change at least one of name, query, shared" });

export type NewView = z.infer<typeof newViewSchema>;
export type ViewPatch = z.infer<typeof viewPatchSchema>;
