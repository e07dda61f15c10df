// The task-table filter: one zod schema for the URL, the page and the JSON API alike.
import { z } from "zod";
import { REVIEW_STATES, TASK_STATUSES } from "@/lib/domain";

// zod compiles object parsers with `new Function` when it may; probing for that is a CSP
// violation in the browser (our CSP forbids eval). The interpreted parser is fast enough here.
z.config({ jitless: true });

export const SORT_COLUMNS = [
  "id",
  "round",
  "status",
  "operator",
  "category",
  "review",
  "solution_lines",
  "commands",
  "distinct_tools",
  "instruction_words",
  "verifier_tests",
  "pass_at_k",
  "mean_reward",
  "flags",
] as const;
export type SortColumn = (typeof SORT_COLUMNS)[number];

/** Metric range filters: URL keys `<metric>_min` / `<metric>_max`. */
export const RANGE_METRICS = [
  "solution_lines",
  "commands",
  "distinct_tools",
  "instruction_words",
  "verifier_tests",
  "pass_at_k",
] as const;
export type RangeMetric = (typeof RANGE_METRICS)[number];

const intParam = z.coerce.number().int().min(0).max(1_000_000);
const numParam = z.coerce.number().finite();

export const taskFilterSchema = z.object({
  run: z.string().min(1).max(200).optional(),
  round: intParam.optional(),
  round_min: intParam.optional(),
  round_max: intParam.optional(),
  status: z.enum(TASK_STATUSES).optional(),
  review: z.enum(REVIEW_STATES).optional(),
  operator: z.string().min(1).max(200).optional(),
  category: z.string().min(1).max(200).optional(),
  /** Database id of a seed: the tasks of its lineage family (tasks.root_id). */
  root: z.coerce.number().int().min(1).max(2_147_483_647).optional(),
  /** A rejection reason, or NO_REASON ("(none)") for tasks without one. */
  reason: z.string().min(1).max(200).optional(),
  /** "any" for tasks with an open flag, "none" for tasks without one, or a rule id. */
  flag: z.string().min(1).max(100).optional(),
  q: z.string().max(500).optional(),
  /** A column name, "-" prefixed for descending. */
  sort: z
    .string()
    .regex(/^-?[a-z_]+$/)
    .refine((s) => (SORT_COLUMNS as readonly string[]).includes(s.replace(/^-/, "")), "unknown sort column")
    .optional(),
  cursor: z.string().max(100).optional(),
  limit: z.coerce.number().int().min(1).max(500).default(50),
  ...Object.fromEntries(RANGE_METRICS.flatMap((m) => [[`${m}_min`, numParam.optional()], [`${m}_max`, numParam.optional()]])),
});

export type TaskFilter = z.infer<typeof taskFilterSchema> & Partial<Record<`${RangeMetric}_${"min" | "max"}`, number>>;

/** Parse URLSearchParams (or a Next searchParams record); empty values are ignored. */
export function parseTaskFilter(
  input: URLSearchParams | Record<string, string | string[] | undefined>,
): { ok: true; filter: TaskFilter } | { ok: false; error: z.ZodError } {
  const entries: Record<string, string> = {};
  const add = (k: string, v: string | undefined) => {
    if (v !== undefined && v.trim() !== "") entries[k] = v.trim();
  };
  if (input instanceof URLSearchParams) input.forEach((v, k) => add(k, v));
  else for (const [k, v] of Object.entries(input)) add(k, Array.isArray(v) ? v[0] : v);
  const parsed = taskFilterSchema.safeParse(entries);
  return parsed.success ? { ok: true, filter: parsed.data as TaskFilter } : { ok: false, error: parsed.error };
}

/** Serialize a filter back to a query string (stable key order), e.g. for links and saved views. */
export function taskFilterToSearch(filter: Partial<TaskFilter>): string {
  const params = new URLSearchParams();
  for (const key of Object.keys(filter).sort()) {
    const v = (filter as Record<string, unknown>)[key];
    if (v === undefined || v === null || v === "") continue;
    if (key === "limit" && v === 50) continue;
    params.set(key, String(v));
  }
  return params.toString();
}
