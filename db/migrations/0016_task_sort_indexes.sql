-- Hand-written (issue 2 speed, docs/benchmarks.md): an index per sortable column of the task
-- table, each ending in "id". The table sorts by (column, id); an index on (run_id, column) alone
-- gave the column's order but not the ties' order, so a page sorted by status, review state,
-- category or operator read and sorted every task of a value (with a text search, checking each
-- one's vector: up to 1 s at paper scale). With "id" last, a page reads only as far as its end,
-- and a listing across runs merges each run's first rows (db/queries/tasks.ts pageRows).
DROP INDEX IF EXISTS "tasks_operator_idx";--> statement-breakpoint
CREATE INDEX "tasks_operator_idx" ON "tasks" USING btree ("run_id","operator","id");--> statement-breakpoint
DROP INDEX IF EXISTS "tasks_category_idx";--> statement-breakpoint
CREATE INDEX "tasks_category_idx" ON "tasks" USING btree ("run_id","category","id");--> statement-breakpoint
DROP INDEX IF EXISTS "tasks_review_idx";--> statement-breakpoint
CREATE INDEX "tasks_review_idx" ON "tasks" USING btree ("run_id","review_state","id");--> statement-breakpoint
DROP INDEX IF EXISTS "tasks_solution_lines_idx";--> statement-breakpoint
CREATE INDEX "tasks_solution_lines_idx" ON "tasks" USING btree ("run_id","solution_lines","id");--> statement-breakpoint
DROP INDEX IF EXISTS "tasks_commands_idx";--> statement-breakpoint
CREATE INDEX "tasks_commands_idx" ON "tasks" USING btree ("run_id","commands","id");--> statement-breakpoint
DROP INDEX IF EXISTS "tasks_pass_idx";--> statement-breakpoint
CREATE INDEX "tasks_pass_idx" ON "tasks" USING btree ("run_id","pass_at_k","id");--> statement-breakpoint
CREATE INDEX "tasks_status_sort_idx" ON "tasks" USING btree ("run_id","status","id");--> statement-breakpoint
CREATE INDEX "tasks_distinct_tools_idx" ON "tasks" USING btree ("run_id","distinct_tools","id");--> statement-breakpoint
CREATE INDEX "tasks_instruction_words_idx" ON "tasks" USING btree ("run_id","instruction_words","id");--> statement-breakpoint
CREATE INDEX "tasks_verifier_tests_idx" ON "tasks" USING btree ("run_id","verifier_tests","id");--> statement-breakpoint
CREATE INDEX "tasks_mean_reward_idx" ON "tasks" USING btree ("run_id","mean_reward","id");--> statement-breakpoint
CREATE INDEX "tasks_flags_idx" ON "tasks" USING btree ("run_id","open_flags","id");
