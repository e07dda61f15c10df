-- Hand-written (issue 7 speed, docs/review-bench.md).
-- The rollup trigger of 0010 is planned from transition tables whose join the planner
-- overestimates a hundredfold for a bulk decision, so PostgreSQL compiled it with JIT: 2.5 s of
-- a 10,000-task bulk decision went to compiling, ≈ 0.3 s to the work. Its sorts get room too.
ALTER FUNCTION "round_rollups_follow_tasks"() SET jit = off;
--> statement-breakpoint
ALTER FUNCTION "round_rollups_follow_tasks"() SET work_mem = '64MB';
--> statement-breakpoint
-- A queue member is done once its task gets a decision (not a skip) made after it joined the
-- queue, wherever the decision was made: kept on the member by the trigger below, in the
-- decision's own transaction, instead of being derived from reviews by every read.
ALTER TABLE "queue_items" ADD COLUMN "done_at" timestamp with time zone;
--> statement-breakpoint
UPDATE "queue_items" qi SET "done_at" = (
  SELECT min(r.created_at) FROM reviews r WHERE r.task_id = qi.task_id AND r.created_at >= qi.added_at AND r.decision <> 'skip'
);
--> statement-breakpoint
-- What a reviewer is handed next: the open members in queue order.
CREATE INDEX "queue_items_open_idx" ON "queue_items" USING btree ("queue_id","position","task_id") WHERE "done_at" IS NULL;
--> statement-breakpoint
-- One statement per INSERT into reviews, however many rows it adds (a bulk decision adds
-- thousands): every member of every queue holding a decided task, not done yet, is done now.
CREATE FUNCTION "queue_items_follow_reviews"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE queue_items qi SET done_at = r.at
  FROM (SELECT task_id, min(created_at) AS at FROM new_reviews WHERE decision <> 'skip' GROUP BY task_id) r
  WHERE qi.task_id = r.task_id AND qi.done_at IS NULL AND qi.added_at <= r.at;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "reviews_queue_items_done" AFTER INSERT ON "reviews"
  REFERENCING NEW TABLE AS new_reviews
  FOR EACH STATEMENT EXECUTE FUNCTION "queue_items_follow_reviews"();
