CREATE TABLE "task_events" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"user_id" uuid NOT NULL,
	"root_task_id" uuid,
	"task_id" uuid,
	"type" text NOT NULL,
	"data" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "jobs" ADD COLUMN "group_key" text;--> statement-breakpoint
ALTER TABLE "tasks" ADD COLUMN "failure_reason" text;--> statement-breakpoint
ALTER TABLE "task_events" ADD CONSTRAINT "task_events_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "task_events_root_idx" ON "task_events" USING btree ("root_task_id","id");--> statement-breakpoint
CREATE INDEX "task_events_user_idx" ON "task_events" USING btree ("user_id","id");--> statement-breakpoint
CREATE INDEX "jobs_group_idx" ON "jobs" USING btree ("group_key","status");