-- Hand-written (drizzle cannot express INCLUDE): the task table's filtered counts read this
-- index alone instead of the table rows (see db/schema.ts, docs/benchmarks.md).
DROP INDEX IF EXISTS "tasks_run_round_idx";--> statement-breakpoint
CREATE INDEX "tasks_run_round_idx" ON "tasks" USING btree ("run_id","round","id") INCLUDE ("status","review_state","operator","category","open_flags","solution_lines","commands","distinct_tools","instruction_words","verifier_tests","pass_at_k");
