-- The Validation page (db/queries/trials.ts runValidation) reads, for every trial of a run, its
-- task, check kind, reward and exception type: from this index alone (an index-only scan, ≈ 10 MB
-- at paper scale) instead of the trial rows themselves (≈ 140 MB with their phases and messages).
-- drizzle-kit cannot say INCLUDE: db/schema/trials.ts declares the index without it.
CREATE INDEX "trials_validation_idx" ON "trials" USING btree ("run_id", "task_id") INCLUDE ("check", "reward", "exception_type");
