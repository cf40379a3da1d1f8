CREATE TABLE "replan_proposals" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"task_id" uuid NOT NULL,
	"root_task_id" uuid NOT NULL,
	"guidance" text,
	"planner" text NOT NULL,
	"base_fingerprint" text NOT NULL,
	"status" text DEFAULT 'open' NOT NULL,
	"changes" jsonb NOT NULL,
	"kept_locked" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "task_revisions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"seq" integer GENERATED ALWAYS AS IDENTITY (sequence name "task_revisions_seq_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"root_task_id" uuid NOT NULL,
	"task_id" uuid,
	"kind" text NOT NULL,
	"summary" text NOT NULL,
	"snapshot" jsonb NOT NULL,
	"task_count" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "tasks" ADD COLUMN "edited_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "tasks" ADD COLUMN "exported_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "replan_proposals" ADD CONSTRAINT "replan_proposals_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "replan_proposals" ADD CONSTRAINT "replan_proposals_task_id_tasks_id_fk" FOREIGN KEY ("task_id") REFERENCES "public"."tasks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "replan_proposals" ADD CONSTRAINT "replan_proposals_root_task_id_tasks_id_fk" FOREIGN KEY ("root_task_id") REFERENCES "public"."tasks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "task_revisions" ADD CONSTRAINT "task_revisions_root_task_id_tasks_id_fk" FOREIGN KEY ("root_task_id") REFERENCES "public"."tasks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "replan_proposals_root_idx" ON "replan_proposals" USING btree ("root_task_id","created_at");--> statement-breakpoint
CREATE INDEX "task_revisions_root_idx" ON "task_revisions" USING btree ("root_task_id","seq");