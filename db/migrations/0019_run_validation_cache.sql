-- The Validation page of a run as computed after its latest finished import: the page reads every
-- trial of the run four times (≈ 0.8 s at paper scale), yet trials and tasks change only through
-- imports. Stamped with that import's id; a later finished import makes it stale (runValidation).
ALTER TABLE "runs" ADD COLUMN "validation" jsonb;
