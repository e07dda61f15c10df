-- Saved views of the task table (a name for a filter's query string), and at most one bulk
-- decision per idempotency key: a double-submitted bulk action finds the first one's audit row.
CREATE TABLE "saved_views" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"query" text NOT NULL,
	"created_by" text NOT NULL,
	"created_by_label" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"shared" boolean DEFAULT true NOT NULL
);--> statement-breakpoint
CREATE UNIQUE INDEX "saved_views_creator_name_uq" ON "saved_views" USING btree ("created_by","name");--> statement-breakpoint
CREATE UNIQUE INDEX "audit_bulk_key_uq" ON "audit_log" USING btree (("details"->>'actor'),("details"->>'idempotency_key')) WHERE "action" = 'review.bulk';
