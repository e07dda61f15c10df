-- Hand-written (issue 2 speed, docs/benchmarks.md). A text search finds a task through its row
-- in task_search, by its words or by its id (db/queries/task-search.ts searchRowMatch): every task has
-- one. Imports write it with the task (db/queries/ingest.ts); a task that had no vector before
-- migration 0013 got none there, and gets an empty one here.
INSERT INTO "task_search" ("task_id", "search")
SELECT t."id", ''::tsvector FROM "tasks" t
WHERE NOT EXISTS (SELECT 1 FROM "task_search" s WHERE s."task_id" = t."id");
