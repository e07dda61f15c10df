CREATE TABLE "review_queues" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"filter" text DEFAULT '' NOT NULL,
	"reservation_minutes" integer DEFAULT 15 NOT NULL,
	"created_by" text,
	"created_by_label" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"archived_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "queue_items" (
	"queue_id" integer NOT NULL,
	"task_id" integer NOT NULL,
	"position" integer NOT NULL,
	"added_at" timestamp with time zone DEFAULT now() NOT NULL,
	"added_by" text,
	CONSTRAINT "queue_items_queue_id_task_id_pk" PRIMARY KEY("queue_id","task_id")
);
--> statement-breakpoint
CREATE TABLE "queue_reservations" (
	"queue_id" integer NOT NULL,
	"task_id" integer NOT NULL,
	"holder" text NOT NULL,
	"holder_label" text NOT NULL,
	"reserved_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	CONSTRAINT "queue_reservations_queue_id_task_id_pk" PRIMARY KEY("queue_id","task_id")
);
--> statement-breakpoint
CREATE TABLE "queue_skips" (
	"queue_id" integer NOT NULL,
	"task_id" integer NOT NULL,
	"holder" text NOT NULL,
	"skipped_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "queue_skips_queue_id_task_id_holder_pk" PRIMARY KEY("queue_id","task_id","holder")
);
--> statement-breakpoint
ALTER TABLE "review_queues" ADD CONSTRAINT "review_queues_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "queue_items" ADD CONSTRAINT "queue_items_queue_id_review_queues_id_fk" FOREIGN KEY ("queue_id") REFERENCES "public"."review_queues"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "queue_items" ADD CONSTRAINT "queue_items_task_id_tasks_id_fk" FOREIGN KEY ("task_id") REFERENCES "public"."tasks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "queue_reservations" ADD CONSTRAINT "queue_reservations_item_fk" FOREIGN KEY ("queue_id","task_id") REFERENCES "public"."queue_items"("queue_id","task_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "queue_skips" ADD CONSTRAINT "queue_skips_item_fk" FOREIGN KEY ("queue_id","task_id") REFERENCES "public"."queue_items"("queue_id","task_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "queue_items_position_idx" ON "queue_items" USING btree ("queue_id","position","task_id");--> statement-breakpoint
CREATE INDEX "queue_items_task_idx" ON "queue_items" USING btree ("task_id");--> statement-breakpoint
CREATE INDEX "queue_reservations_holder_idx" ON "queue_reservations" USING btree ("queue_id","holder");--> statement-breakpoint
CREATE INDEX "reviews_task_created_idx" ON "reviews" USING btree ("task_id","created_at");
