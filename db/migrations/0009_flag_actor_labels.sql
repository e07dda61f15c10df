ALTER TABLE "flags" ADD COLUMN "created_by_label" text;--> statement-breakpoint
ALTER TABLE "flags" ADD COLUMN "resolved_by_label" text;
