-- Hand-edited (issue 2 speed, docs/benchmarks.md): word pairs for phrase searches. A phrase
-- `a <-> b` is checked on the positions in a task's vector, which the GIN index of task_search
-- does not keep, so a phrase of common words read the vector of every task having them (≈ 1 s
-- at paper scale for a phrase that never occurs). Each row now lists hashes of its adjacent word
-- pairs — only those its parent's text lacks (lib/ingest/search-vector.ts) — and a phrase's
-- tasks are found under the tasks that brought its pairs in (db/queries/task-search.ts
-- phraseScope). {0} stands for every pair: rows written before this migration, by other
-- importers, or whose vector the database built.
ALTER TABLE "task_search" ADD COLUMN "pairs" integer[] DEFAULT '{0}'::integer[] NOT NULL;--> statement-breakpoint
CREATE INDEX "task_search_pairs_idx" ON "task_search" USING gin ("pairs");
