-- Hand-written (drizzle cannot express INCLUDE): the round statistics read these two indexes
-- alone, not the task and trial rows (see db/schema.ts, docs/benchmarks.md).
DROP INDEX IF EXISTS "tasks_run_round_idx";--> statement-breakpoint
CREATE INDEX "tasks_run_round_idx" ON "tasks" USING btree ("run_id","round","id") INCLUDE ("status","review_state","operator","category","open_flags","solution_lines","commands","distinct_tools","instruction_words","verifier_tests","pass_at_k","mean_reward","rejection_reason","root_id");--> statement-breakpoint
CREATE INDEX "trials_oracle_idx" ON "trials" USING btree ("run_id","task_id") INCLUDE ("reward") WHERE "check" = 'oracle';--> statement-breakpoint
-- Planner statistics for databases imported before imports ended with ANALYZE (RunWriter.finish):
-- without them the first statistics were planned for empty tables.
ANALYZE "tasks";--> statement-breakpoint
ANALYZE "trials";
