CREATE TABLE "audit_log" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "audit_log_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"actor_id" text,
	"actor_label" text,
	"action" text NOT NULL,
	"target_type" text,
	"target_id" text,
	"details" jsonb DEFAULT '{}'::jsonb NOT NULL
);
--> statement-breakpoint
CREATE TABLE "blobs" (
	"hash" text PRIMARY KEY NOT NULL,
	"size" integer NOT NULL,
	"encoding" text NOT NULL,
	"content" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "evals" (
	"task_id" integer NOT NULL,
	"model" text NOT NULL,
	"k" integer NOT NULL,
	"n" integer NOT NULL,
	"successes" integer NOT NULL,
	"mean_reward" double precision,
	CONSTRAINT "evals_task_id_model_pk" PRIMARY KEY("task_id","model")
);
--> statement-breakpoint
CREATE TABLE "flags" (
	"id" serial PRIMARY KEY NOT NULL,
	"task_id" integer NOT NULL,
	"rule" text NOT NULL,
	"source" text NOT NULL,
	"status" text DEFAULT 'open' NOT NULL,
	"severity" text DEFAULT 'medium' NOT NULL,
	"message" text NOT NULL,
	"evidence" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"content_hash" text NOT NULL,
	"created_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"resolved_by" text,
	"resolved_at" timestamp with time zone,
	"resolution" text
);
--> statement-breakpoint
CREATE TABLE "imports" (
	"id" serial PRIMARY KEY NOT NULL,
	"run_id" integer,
	"run_name" text NOT NULL,
	"format" text NOT NULL,
	"source_path" text NOT NULL,
	"status" text NOT NULL,
	"summary" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"error" text,
	"started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "reviews" (
	"id" serial PRIMARY KEY NOT NULL,
	"task_id" integer NOT NULL,
	"user_id" text,
	"decision" text NOT NULL,
	"reason" text,
	"note" text,
	"base_version" integer NOT NULL,
	"content_hash" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "runs" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"format" text NOT NULL,
	"source_path" text,
	"meta" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"source_digest" text,
	"created_at" timestamp with time zone,
	"ingested_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "runs_name_unique" UNIQUE("name")
);
--> statement-breakpoint
CREATE TABLE "task_files" (
	"task_id" integer NOT NULL,
	"path" text NOT NULL,
	"blob_hash" text NOT NULL,
	"size" integer NOT NULL,
	CONSTRAINT "task_files_task_id_path_pk" PRIMARY KEY("task_id","path")
);
--> statement-breakpoint
CREATE TABLE "tasks" (
	"id" serial PRIMARY KEY NOT NULL,
	"run_id" integer NOT NULL,
	"ext_id" text NOT NULL,
	"parent_id" integer,
	"parent_ext_id" text,
	"root_id" integer,
	"path" text DEFAULT '/' NOT NULL,
	"round" integer,
	"depth" integer DEFAULT 0 NOT NULL,
	"operator" text,
	"status" text NOT NULL,
	"rejection_reason" text,
	"repair_attempts" integer DEFAULT 0 NOT NULL,
	"name" text,
	"category" text,
	"declared_difficulty" text,
	"created_at" timestamp with time zone,
	"content_hash" text NOT NULL,
	"metadata" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"solution_lines" integer,
	"commands" integer,
	"distinct_tools" integer,
	"instruction_words" integer,
	"verifier_tests" integer,
	"verifier_asserts" integer,
	"eval_model" text,
	"eval_k" integer,
	"eval_n" integer,
	"eval_successes" integer,
	"pass_at_k" double precision,
	"pass_at_1" double precision,
	"mean_reward" double precision,
	"review_state" text DEFAULT 'unreviewed' NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"open_flags" integer DEFAULT 0 NOT NULL,
	"search" "tsvector"
);
--> statement-breakpoint
CREATE TABLE "trial_logs" (
	"trial_id" integer NOT NULL,
	"name" text NOT NULL,
	"blob_hash" text NOT NULL,
	"bytes" integer NOT NULL,
	"lines" integer NOT NULL,
	CONSTRAINT "trial_logs_trial_id_name_pk" PRIMARY KEY("trial_id","name")
);
--> statement-breakpoint
CREATE TABLE "trial_tests" (
	"trial_id" integer NOT NULL,
	"seq" integer NOT NULL,
	"name" text NOT NULL,
	"status" text NOT NULL,
	"duration_ms" double precision,
	"message" text,
	CONSTRAINT "trial_tests_trial_id_seq_pk" PRIMARY KEY("trial_id","seq")
);
--> statement-breakpoint
CREATE TABLE "trials" (
	"id" serial PRIMARY KEY NOT NULL,
	"run_id" integer NOT NULL,
	"task_id" integer,
	"ext_id" text NOT NULL,
	"check" text NOT NULL,
	"agent_name" text,
	"model_name" text,
	"reward" double precision,
	"rewards" jsonb,
	"exception_type" text,
	"exception_message" text,
	"task_checksum" text,
	"content_hash" text,
	"started_at" timestamp with time zone,
	"finished_at" timestamp with time zone,
	"phases" jsonb
);
--> statement-breakpoint
CREATE TABLE "users" (
	"id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"email" text NOT NULL,
	"email_verified" boolean DEFAULT false NOT NULL,
	"image" text,
	"role" text DEFAULT 'viewer' NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "users_email_unique" UNIQUE("email")
);
--> statement-breakpoint
ALTER TABLE "evals" ADD CONSTRAINT "evals_task_id_tasks_id_fk" FOREIGN KEY ("task_id") REFERENCES "public"."tasks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "flags" ADD CONSTRAINT "flags_task_id_tasks_id_fk" FOREIGN KEY ("task_id") REFERENCES "public"."tasks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "flags" ADD CONSTRAINT "flags_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "flags" ADD CONSTRAINT "flags_resolved_by_users_id_fk" FOREIGN KEY ("resolved_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "imports" ADD CONSTRAINT "imports_run_id_runs_id_fk" FOREIGN KEY ("run_id") REFERENCES "public"."runs"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reviews" ADD CONSTRAINT "reviews_task_id_tasks_id_fk" FOREIGN KEY ("task_id") REFERENCES "public"."tasks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reviews" ADD CONSTRAINT "reviews_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "task_files" ADD CONSTRAINT "task_files_task_id_tasks_id_fk" FOREIGN KEY ("task_id") REFERENCES "public"."tasks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "task_files" ADD CONSTRAINT "task_files_blob_hash_blobs_hash_fk" FOREIGN KEY ("blob_hash") REFERENCES "public"."blobs"("hash") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tasks" ADD CONSTRAINT "tasks_run_id_runs_id_fk" FOREIGN KEY ("run_id") REFERENCES "public"."runs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "trial_logs" ADD CONSTRAINT "trial_logs_trial_id_trials_id_fk" FOREIGN KEY ("trial_id") REFERENCES "public"."trials"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "trial_logs" ADD CONSTRAINT "trial_logs_blob_hash_blobs_hash_fk" FOREIGN KEY ("blob_hash") REFERENCES "public"."blobs"("hash") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "trial_tests" ADD CONSTRAINT "trial_tests_trial_id_trials_id_fk" FOREIGN KEY ("trial_id") REFERENCES "public"."trials"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "trials" ADD CONSTRAINT "trials_run_id_runs_id_fk" FOREIGN KEY ("run_id") REFERENCES "public"."runs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "trials" ADD CONSTRAINT "trials_task_id_tasks_id_fk" FOREIGN KEY ("task_id") REFERENCES "public"."tasks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "audit_at_idx" ON "audit_log" USING btree ("at");--> statement-breakpoint
CREATE INDEX "audit_action_idx" ON "audit_log" USING btree ("action","at");--> statement-breakpoint
CREATE INDEX "flags_task_idx" ON "flags" USING btree ("task_id");--> statement-breakpoint
CREATE INDEX "flags_rule_idx" ON "flags" USING btree ("rule","status");--> statement-breakpoint
CREATE UNIQUE INDEX "flags_auto_uq" ON "flags" USING btree ("task_id","rule","content_hash") WHERE source = 'auto';--> statement-breakpoint
CREATE UNIQUE INDEX "reviews_task_version_uq" ON "reviews" USING btree ("task_id","base_version");--> statement-breakpoint
CREATE INDEX "reviews_user_idx" ON "reviews" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "task_files_blob_idx" ON "task_files" USING btree ("blob_hash");--> statement-breakpoint
CREATE UNIQUE INDEX "tasks_run_ext_uq" ON "tasks" USING btree ("run_id","ext_id");--> statement-breakpoint
CREATE INDEX "tasks_parent_idx" ON "tasks" USING btree ("parent_id");--> statement-breakpoint
CREATE INDEX "tasks_root_idx" ON "tasks" USING btree ("root_id");--> statement-breakpoint
CREATE INDEX "tasks_path_idx" ON "tasks" USING btree ("path" text_pattern_ops);--> statement-breakpoint
CREATE INDEX "tasks_run_round_idx" ON "tasks" USING btree ("run_id","round","id");--> statement-breakpoint
CREATE INDEX "tasks_run_status_idx" ON "tasks" USING btree ("run_id","status","round");--> statement-breakpoint
CREATE INDEX "tasks_operator_idx" ON "tasks" USING btree ("run_id","operator");--> statement-breakpoint
CREATE INDEX "tasks_category_idx" ON "tasks" USING btree ("run_id","category");--> statement-breakpoint
CREATE INDEX "tasks_review_idx" ON "tasks" USING btree ("run_id","review_state");--> statement-breakpoint
CREATE INDEX "tasks_solution_lines_idx" ON "tasks" USING btree ("run_id","solution_lines");--> statement-breakpoint
CREATE INDEX "tasks_commands_idx" ON "tasks" USING btree ("run_id","commands");--> statement-breakpoint
CREATE INDEX "tasks_pass_idx" ON "tasks" USING btree ("run_id","pass_at_k");--> statement-breakpoint
CREATE INDEX "tasks_search_idx" ON "tasks" USING gin ("search");--> statement-breakpoint
CREATE UNIQUE INDEX "trials_run_ext_uq" ON "trials" USING btree ("run_id","task_id","ext_id");--> statement-breakpoint
CREATE INDEX "trials_task_idx" ON "trials" USING btree ("task_id");