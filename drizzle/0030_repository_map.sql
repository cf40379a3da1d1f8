CREATE TABLE "repository_maps" (
	"root_task_id" uuid PRIMARY KEY NOT NULL,
	"map" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "tasks" ADD COLUMN "files" jsonb;--> statement-breakpoint
ALTER TABLE "repository_maps" ADD CONSTRAINT "repository_maps_root_task_id_tasks_id_fk" FOREIGN KEY ("root_task_id") REFERENCES "public"."tasks"("id") ON DELETE cascade ON UPDATE no action;