-- Each run's task and trial counts as its last import left them: every page lists the runs, and
-- counting a paper-scale run's 68,000 tasks and 196,000 trials on each listing took ≈ 0.2 s
-- (db/queries/runs.ts). Tasks and trials change only inside imports, which store the counts
-- before they commit; a run without them (null) is counted live.
ALTER TABLE "runs" ADD COLUMN "counts" jsonb;
--> statement-breakpoint
UPDATE "runs" r SET "counts" = jsonb_build_object(
  'seeds', (SELECT count(*) FROM "tasks" t WHERE t."run_id" = r."id" AND t."parent_ext_id" IS NULL),
  'rounds', coalesce((SELECT max(t."round") FROM "tasks" t WHERE t."run_id" = r."id"), 0),
  'accepted', (SELECT count(*) FROM "tasks" t WHERE t."run_id" = r."id" AND t."status" = 'accepted'),
  'rejected', (SELECT count(*) FROM "tasks" t WHERE t."run_id" = r."id" AND t."status" = 'rejected'),
  'trials', (SELECT count(*) FROM "trials" tr WHERE tr."run_id" = r."id"));
