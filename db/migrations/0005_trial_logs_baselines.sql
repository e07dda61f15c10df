CREATE TABLE "baselines" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"run_name" text NOT NULL,
	"slice" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"stats" jsonb NOT NULL,
	"created_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "baselines_name_unique" UNIQUE("name")
);
--> statement-breakpoint
CREATE TABLE "log_chunks" (
	"blob_hash" text NOT NULL,
	"first_line" integer NOT NULL,
	"line_count" integer NOT NULL,
	"content" text NOT NULL,
	"clipped" jsonb,
	CONSTRAINT "log_chunks_blob_hash_first_line_pk" PRIMARY KEY("blob_hash","first_line")
);
--> statement-breakpoint
ALTER TABLE "trial_logs" ADD COLUMN "chunked" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "trial_tests" ADD COLUMN "log_name" text;--> statement-breakpoint
ALTER TABLE "trial_tests" ADD COLUMN "log_line" integer;--> statement-breakpoint
ALTER TABLE "trials" ADD COLUMN "problems" jsonb;--> statement-breakpoint
ALTER TABLE "trials" ADD COLUMN "source" text;--> statement-breakpoint
ALTER TABLE "log_chunks" ADD CONSTRAINT "log_chunks_blob_hash_blobs_hash_fk" FOREIGN KEY ("blob_hash") REFERENCES "public"."blobs"("hash") ON DELETE no action ON UPDATE no action;