-- Lineage inference (C12, lib/lineage/infer.ts): a task whose parent link was inferred from content
-- keeps the confidence and evidence here; NULL for declared lineage.
ALTER TABLE "tasks" ADD COLUMN "lineage_inferred" jsonb;
