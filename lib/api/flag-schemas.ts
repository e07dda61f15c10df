// Flags over the API: the list filter (URL of the Flags page and `GET /api/v1/flags` alike), a
// manual flag (`POST /api/v1/tasks/{id}/flags`) and a status change (`PATCH /api/v1/flags/{id}`).
import { z } from "zod";
import { FLAG_SEVERITIES, FLAG_SOURCES, FLAG_STATUSES } from "@/lib/flags/types";

z.config({ jitless: true });

/** What the status filter accepts: a stored status, or "outdated" (open, on an older revision). */
export const FLAG_VIEW_STATUSES = ["open", "outdated", "resolved", "dismissed"] as const;
export type FlagViewStatus = (typeof FLAG_VIEW_STATUSES)[number];

/** The operator key of seeds (which have none) in filters and tables. */
export const NO_OPERATOR = "(none)";

const id = z.coerce.number().int().min(1).max(2_147_483_647);

export const flagQuerySchema = z.object({
  run: z.string().min(1).max(200).optional(),
  rule: z.string().min(1).max(100).optional(),
  status: z.enum(FLAG_VIEW_STATUSES).optional(),
  source: z.enum(FLAG_SOURCES).optional(),
  severity: z.enum(FLAG_SEVERITIES).optional(),
  round: z.coerce.number().int().min(0).max(1_000_000).optional(),
  operator: z.string().min(1).max(200).optional(),
  task: id.optional(),
  /** The `next` of the previous page. */
  cursor: id.optional(),
  limit: z.coerce.number().int().min(1).max(500).default(50),
});
export type FlagQueryParams = z.infer<typeof flagQuerySchema>;

/** Parses URL parameters (or a Next searchParams record); empty values are ignored. */
export function parseFlagQuery(input: URLSearchParams | Record<string, string | string[] | undefined>) {
  const entries: Record<string, string> = {};
  const add = (k: string, v: string | undefined) => {
    if (v !== undefined && v.trim() !== "") entries[k] = v.trim();
  };
  if (input instanceof URLSearchParams) input.forEach((v, k) => add(k, v));
  else for (const [k, v] of Object.entries(input)) add(k, Array.isArray(v) ? v[0] : v);
  return flagQuerySchema.safeParse(entries);
}

export const flagCountsQuerySchema = z.object({
  run: z.string().min(1).max(200).optional(),
  source: z.enum(FLAG_SOURCES).optional(),
});

const positive = z.number().int().min(1).max(2_147_483_647);

/** Evidence a reviewer may attach to a manual flag: the FlagEvidence fields, nothing else. */
export const flagEvidenceSchema = z.strictObject({
  trial_id: positive.optional(),
  log: z.string().min(1).max(1000).optional(),
  log_line: positive.optional(),
  file: z.string().min(1).max(1000).optional(),
  line: positive.optional(),
  compare_task_id: positive.optional(),
  test: z.string().min(1).max(1000).optional(),
  excerpt: z.string().max(2000).optional(),
});

export const newFlagSchema = z.strictObject({
  /** What the reviewer saw: the flag's message. */
  note: z.string().trim().min(1, "write a note: what is wrong").max(10_000),
  severity: z.enum(FLAG_SEVERITIES).default("medium"),
  evidence: flagEvidenceSchema.default({}),
});
export type NewFlag = z.infer<typeof newFlagSchema>;

export const flagChangeSchema = z
  .strictObject({
    status: z.enum(FLAG_STATUSES),
    reason: z.string().trim().max(10_000).optional(),
  })
  .refine((c) => c.status === "open" || (c.reason !== undefined && c.reason !== ""), {
    message: "say why: resolving or dismissing a flag needs a reason",
    path: ["reason"],
  });
export type FlagChange = z.infer<typeof flagChangeSchema>;
