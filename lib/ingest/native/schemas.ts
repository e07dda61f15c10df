// Strict shapes of the native RST run files (FORMATS.md §4).
import { z } from "zod";

/** A task id names a directory: no separators, no dot-dot, no control characters. */
export const taskIdSchema = z
  .string()
  .min(1)
  .max(200)
  .regex(/^[^/\\\u0000-\u001f]+$/, "must be a plain directory name")
  .refine((s) => s !== "." && s !== "..", "must be a plain directory name");

export const lineageSchema = z.looseObject({
  task_id: taskIdSchema,
  parent_id: taskIdSchema.nullable(),
  round: z.number().int().min(0).max(10_000),
  operator: z.string().max(200).nullish(),
  status: z.enum(["accepted", "rejected"]),
  rejection_reason: z.string().max(200).nullish(),
  repair_attempts: z.number().int().min(0).max(1000).nullish(),
  created_at: z.string().max(100).nullish(),
});
export type LineageRecord = z.infer<typeof lineageSchema>;

export const runJsonSchema = z.looseObject({
  name: z.string().min(1).max(200),
  created_at: z.string().max(100).nullish(),
  seeds: z.number().int().min(0).nullish(),
  rounds: z.number().int().min(0).nullish(),
  solver: z.looseObject({ model: z.string().max(200).nullish(), k: z.number().int().min(1).nullish() }).nullish(),
});
export type RunJson = z.infer<typeof runJsonSchema>;

export const evalSchema = z.looseObject({
  task_id: taskIdSchema,
  model: z.string().min(1).max(200),
  k: z.number().int().min(1).max(10_000),
  n: z.number().int().min(0).max(1_000_000),
  successes: z.number().int().min(0),
  mean_reward: z.number().min(0).max(1).nullish(),
}).refine((e) => e.successes <= e.n, { message: "successes must not exceed n", path: ["successes"] });
export type EvalRecord = z.infer<typeof evalSchema>;
