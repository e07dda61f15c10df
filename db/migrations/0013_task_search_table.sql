-- Hand-written (issue 7 speed, docs/bulk-bench.md): the full-text vector moves out of "tasks".
-- A review decision changes review_state, which two indexes of tasks hold, so no update of a
-- task row is HOT; with the vector in the row, every decision also entered all of the task's
-- words in the GIN index again (most of a bulk decision's work, docs/bulk-bench.md). Here the
-- vector and its index are written by imports only.
CREATE TABLE "task_search" (
	"task_id" integer PRIMARY KEY NOT NULL REFERENCES "tasks"("id") ON DELETE CASCADE,
	"search" tsvector NOT NULL
);
--> statement-breakpoint
-- The copy decompresses and compresses every vector again: lz4 where the server has it, as an
-- import writes them (db/queries/ingest.ts), for this transaction only.
DO $$
BEGIN
  IF EXISTS (SELECT 1 FROM pg_settings WHERE name = 'default_toast_compression' AND 'lz4' = ANY(enumvals)) THEN
    PERFORM set_config('default_toast_compression', 'lz4', true);
  END IF;
END
$$;
--> statement-breakpoint
INSERT INTO "task_search" ("task_id", "search") SELECT "id", "search" FROM "tasks" WHERE "search" IS NOT NULL ORDER BY "id";
--> statement-breakpoint
-- Built once over the copied rows: faster than entering them one by one.
CREATE INDEX "task_search_idx" ON "task_search" USING gin ("search");
--> statement-breakpoint
DROP INDEX IF EXISTS "tasks_search_idx";
--> statement-breakpoint
ALTER TABLE "tasks" DROP COLUMN "search";
--> statement-breakpoint
ANALYZE "task_search";
