CREATE TABLE "task_dependencies" (
	"task_id" uuid NOT NULL,
	"depends_on_id" uuid NOT NULL,
	"root_task_id" uuid NOT NULL,
	"source" text DEFAULT 'person' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "task_dependencies_task_id_depends_on_id_pk" PRIMARY KEY("task_id","depends_on_id")
);
--> statement-breakpoint
ALTER TABLE "tasks" ADD COLUMN "estimate_low_hours" real;--> statement-breakpoint
ALTER TABLE "tasks" ADD COLUMN "estimate_high_hours" real;--> statement-breakpoint
ALTER TABLE "task_dependencies" ADD CONSTRAINT "task_dependencies_task_id_tasks_id_fk" FOREIGN KEY ("task_id") REFERENCES "public"."tasks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "task_dependencies" ADD CONSTRAINT "task_dependencies_depends_on_id_tasks_id_fk" FOREIGN KEY ("depends_on_id") REFERENCES "public"."tasks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "task_dependencies" ADD CONSTRAINT "task_dependencies_root_task_id_tasks_id_fk" FOREIGN KEY ("root_task_id") REFERENCES "public"."tasks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "task_dependencies_root_idx" ON "task_dependencies" USING btree ("root_task_id");--> statement-breakpoint
CREATE INDEX "task_dependencies_depends_on_idx" ON "task_dependencies" USING btree ("depends_on_id");--> statement-breakpoint
-- Estimates made before ranges existed get the range the planners now give a point estimate
-- (outline/estimate.ts rangeAround): 0.75x to 1.75x the likely hours, in half hours.
UPDATE "tasks" SET "estimate_low_hours" = round(("estimated_hours" * 0.75 * 2)::numeric) / 2, "estimate_high_hours" = round(("estimated_hours" * 1.75 * 2)::numeric) / 2 WHERE "estimated_hours" IS NOT NULL;
