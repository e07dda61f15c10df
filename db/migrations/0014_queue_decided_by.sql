-- Hand-written (issue 7 speed, docs/review-bench.md).
-- A queue's progress per reviewer was derived on every read from the latest decision of each
-- done member, and a token's label from the audit row of its decision: ≈ 5 µs per done member,
-- read by every reviewer every few seconds (50 ms a read for a queue of 10,000 done). Now each
-- review carries its actor's label, and each member carries its latest counting decision, kept
-- by the reviews trigger in the decision's own transaction, so the progress is a count by
-- reviewer over one index.
ALTER TABLE "reviews" ADD COLUMN "actor_label" text;
--> statement-breakpoint
-- A user's label is their email; a token's is on the audit row written with the decision, which
-- shares its created_at (both are now()) and names the review.
UPDATE "reviews" r SET "actor_label" = coalesce(
  (SELECT u.email FROM users u WHERE u.id = r.user_id),
  (SELECT a.actor_label FROM audit_log a
   WHERE a.action = 'review' AND a.at = r.created_at AND a.target_type = 'task' AND a.target_id = r.task_id::text
     AND a.details->>'review_id' = r.id::text
   LIMIT 1));
--> statement-breakpoint
ALTER TABLE "queue_items" ADD COLUMN "decision" text;
--> statement-breakpoint
ALTER TABLE "queue_items" ADD COLUMN "decided_at" timestamp with time zone;
--> statement-breakpoint
ALTER TABLE "queue_items" ADD COLUMN "decided_by" text;
--> statement-breakpoint
ALTER TABLE "queue_items" ADD COLUMN "decided_by_user" text;
--> statement-breakpoint
UPDATE "queue_items" qi SET "decision" = l.decision, "decided_at" = l.created_at, "decided_by" = l.actor_label, "decided_by_user" = l.user_id
FROM (
  SELECT DISTINCT ON (m.queue_id, m.task_id) m.queue_id, m.task_id, r.decision, r.created_at, r.actor_label, r.user_id
  FROM queue_items m
  JOIN reviews r ON r.task_id = m.task_id AND r.created_at >= m.added_at AND r.decision <> 'skip'
  WHERE m.done_at IS NOT NULL
  ORDER BY m.queue_id, m.task_id, r.id DESC
) l
WHERE qi.queue_id = l.queue_id AND qi.task_id = l.task_id;
--> statement-breakpoint
-- The progress by reviewer and a reviewer's own history (newest first) of a queue.
CREATE INDEX "queue_items_decided_idx" ON "queue_items" USING btree ("queue_id", "decided_by_user", "decided_at") WHERE "done_at" IS NOT NULL;
--> statement-breakpoint
-- Every member of every queue holding a decided task, added before the decision, takes the
-- task's latest decision of the statement; one not done yet is done now (done_at stays the
-- first). One statement per INSERT into reviews, however many rows it adds.
CREATE OR REPLACE FUNCTION "queue_items_follow_reviews"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE queue_items qi SET done_at = coalesce(qi.done_at, r.at), decision = r.decision, decided_at = r.at,
    decided_by = r.actor_label, decided_by_user = r.user_id
  FROM (
    SELECT DISTINCT ON (task_id) task_id, created_at AS at, decision, actor_label, user_id
    FROM new_reviews WHERE decision <> 'skip'
    ORDER BY task_id, id DESC
  ) r
  WHERE qi.task_id = r.task_id AND qi.added_at <= r.at;
  RETURN NULL;
END
$$;
