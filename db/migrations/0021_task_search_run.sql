-- Hand-edited (issue 2 speed, docs/benchmarks.md): the task's run beside its search vector. A
-- word search within a run was counted by joining every match of the word (a hash of up to all
-- the tasks' ids) to the run's tasks (≈ 36 ms for a word in every task at paper scale); with the
-- run here it is counted from the GIN index's rows alone (db/queries/tasks.ts countMatches). A
-- task never changes run; imports write it with the row (db/queries/ingest.ts). No index on it:
-- for a run holding most tasks the planner would walk its rows checking each one's vector.
ALTER TABLE "task_search" ADD COLUMN "run_id" integer;--> statement-breakpoint
UPDATE "task_search" s SET "run_id" = t."run_id" FROM "tasks" t WHERE t."id" = s."task_id";--> statement-breakpoint
ALTER TABLE "task_search" ALTER COLUMN "run_id" SET NOT NULL;
