CREATE TABLE "tracker_changes" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"root_task_id" uuid NOT NULL,
	"remote_item_id" uuid,
	"kind" text NOT NULL,
	"target" text NOT NULL,
	"remote_id" text NOT NULL,
	"remote_key" text NOT NULL,
	"url" text NOT NULL,
	"field" text NOT NULL,
	"theirs" jsonb,
	"ours" jsonb,
	"conflict" boolean DEFAULT false NOT NULL,
	"status" text DEFAULT 'open' NOT NULL,
	"changed_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"resolved_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "remote_items" ADD COLUMN "container_id" text;--> statement-breakpoint
ALTER TABLE "remote_items" ADD COLUMN "baseline" jsonb;--> statement-breakpoint
ALTER TABLE "remote_items" ADD COLUMN "baseline_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "tracker_changes" ADD CONSTRAINT "tracker_changes_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tracker_changes" ADD CONSTRAINT "tracker_changes_root_task_id_tasks_id_fk" FOREIGN KEY ("root_task_id") REFERENCES "public"."tasks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tracker_changes" ADD CONSTRAINT "tracker_changes_remote_item_id_remote_items_id_fk" FOREIGN KEY ("remote_item_id") REFERENCES "public"."remote_items"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "tracker_changes_root_idx" ON "tracker_changes" USING btree ("root_task_id","status");--> statement-breakpoint
CREATE UNIQUE INDEX "tracker_changes_open_idx" ON "tracker_changes" USING btree ("root_task_id","kind","target","remote_id","field") WHERE "tracker_changes"."status" = 'open';