// The Rounds page's whole state lives in the URL: run, runs and baselines to compare, slice,
// metric, band, scale.
// One zod schema parses the page's searchParams, the browser's URL and the API's query string.
import { z } from "zod";
import type { RoundMetric, RoundSliceJson } from "@/lib/api/types";
import { REVIEW_STATES } from "@/lib/domain";
import { taskFilterToSearch } from "@/lib/tasks/filter";
import { ROUND_METRICS } from "./metrics";

export const BANDS = ["iqr", "p10-p90"] as const;
export type Band = (typeof BANDS)[number];

const MAX_COMPARE = 4;
const text = z.string().trim().min(1).max(200);

export const sliceSchema = z.object({
  category: text.optional(),
  operator: text.optional(),
  root: z.coerce.number().int().min(1).max(2_147_483_647).optional(),
  review: z.enum(REVIEW_STATES).optional(),
});

export interface RoundsState {
  run?: string;
  compare: string[];
  /** Ids of saved baselines drawn as further series (URL `baseline=3,7`). */
  baselines: number[];
  slice: RoundSliceJson;
  metric: RoundMetric;
  band: Band;
  log: boolean;
}

export const DEFAULT_STATE: RoundsState = { compare: [], baselines: [], slice: {}, metric: "solution_lines", band: "iqr", log: false };

type Input = URLSearchParams | Record<string, string | string[] | undefined>;

function entries(input: Input): Record<string, string> {
  const out: Record<string, string> = {};
  const add = (k: string, v: string | undefined) => {
    if (v !== undefined && v.trim() !== "") out[k] = v.trim();
  };
  if (input instanceof URLSearchParams) input.forEach((v, k) => add(k, v));
  else for (const [k, v] of Object.entries(input)) add(k, Array.isArray(v) ? v[0] : v);
  return out;
}

/** A parsed slice without its absent fields, so that equal slices compare and serialize equal. */
export function compactSlice(parsed: z.infer<typeof sliceSchema>): RoundSliceJson {
  const slice: RoundSliceJson = {};
  for (const [k, v] of Object.entries(parsed)) if (v !== undefined) Object.assign(slice, { [k]: v });
  return slice;
}

/** Strict parse of the slice parameters (the API answers 400 on a bad one). */
export function parseSlice(input: Input): { ok: true; slice: RoundSliceJson } | { ok: false; error: z.ZodError } {
  const e = entries(input);
  const parsed = sliceSchema.safeParse({ category: e.category, operator: e.operator, root: e.root, review: e.review });
  return parsed.success ? { ok: true, slice: compactSlice(parsed.data) } : { ok: false, error: parsed.error };
}

/** Lenient parse for the page: an unknown value falls back to its default instead of failing. */
export function parseRoundsState(input: Input): RoundsState {
  const e = entries(input);
  const slice = parseSlice(input);
  const metric = (ROUND_METRICS as readonly string[]).includes(e.metric ?? "") ? (e.metric as RoundMetric) : DEFAULT_STATE.metric;
  const band = (BANDS as readonly string[]).includes(e.band ?? "") ? (e.band as Band) : DEFAULT_STATE.band;
  const run = e.run !== undefined && e.run.length <= 200 ? e.run : undefined;
  const compare = [...new Set((e.compare ?? "").split(",").map((s) => s.trim()))]
    .filter((s) => s !== "" && s.length <= 200 && s !== run)
    .slice(0, MAX_COMPARE);
  const baselines = [...new Set((e.baseline ?? "").split(",").map((s) => s.trim()))]
    .filter((s) => /^[1-9]\d{0,9}$/.test(s) && Number(s) <= 2_147_483_647)
    .map(Number)
    .slice(0, MAX_COMPARE);
  return { run, compare, baselines, slice: slice.ok ? slice.slice : {}, metric, band, log: e.log === "1" || e.log === "true" };
}

/** The URL parameters of a state; defaults are left out so that shared links stay short. */
export function roundsStateToParams(state: RoundsState): Record<string, string | null> {
  return {
    run: state.run ?? null,
    compare: state.compare.length > 0 ? state.compare.join(",") : null,
    baseline: state.baselines.length > 0 ? state.baselines.join(",") : null,
    category: state.slice.category ?? null,
    operator: state.slice.operator ?? null,
    root: state.slice.root !== undefined ? String(state.slice.root) : null,
    review: state.slice.review ?? null,
    metric: state.metric === DEFAULT_STATE.metric ? null : state.metric,
    band: state.band === DEFAULT_STATE.band ? null : state.band,
    log: state.log ? "1" : null,
  };
}

export function roundsStateToSearch(state: RoundsState): string {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(roundsStateToParams(state))) if (v !== null) params.set(k, v);
  return params.toString();
}

/** Stable key of a slice, for caches and query keys. */
export function sliceKey(slice: RoundSliceJson): string {
  return JSON.stringify([slice.category ?? null, slice.operator ?? null, slice.root ?? null, slice.review ?? null]);
}

export function sliceToSearch(slice: RoundSliceJson): string {
  const params = new URLSearchParams();
  if (slice.category !== undefined) params.set("category", slice.category);
  if (slice.operator !== undefined) params.set("operator", slice.operator);
  if (slice.root !== undefined) params.set("root", String(slice.root));
  if (slice.review !== undefined) params.set("review", slice.review);
  return params.toString();
}

/**
 * The task table filtered to exactly the tasks behind a bar, segment or point: the run, the round,
 * the page's slice (seed family included) and what the mark adds (a status, an operator, a
 * rejection reason). Null when the mark and the slice name different operators (no such tasks).
 */
export function tasksHref(
  run: string,
  slice: RoundSliceJson,
  round: number,
  extra: { status?: "accepted" | "rejected"; operator?: string; reason?: string } = {},
): string | null {
  if (slice.operator !== undefined && extra.operator !== undefined && extra.operator !== slice.operator) return null;
  return `/tasks?${taskFilterToSearch({
    run,
    round,
    status: extra.status,
    operator: extra.operator ?? slice.operator,
    category: slice.category,
    root: slice.root,
    review: slice.review,
    reason: extra.reason,
  })}`;
}
