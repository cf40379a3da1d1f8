CREATE TABLE "plan_activity" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"root_task_id" uuid NOT NULL,
	"task_id" uuid,
	"actor_id" uuid,
	"actor_name" text,
	"agent" text,
	"kind" text NOT NULL,
	"summary" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "task_events" ADD COLUMN "team_id" uuid;--> statement-breakpoint
ALTER TABLE "teams" ADD COLUMN "requires_approval" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "plan_activity" ADD CONSTRAINT "plan_activity_root_task_id_tasks_id_fk" FOREIGN KEY ("root_task_id") REFERENCES "public"."tasks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "plan_activity" ADD CONSTRAINT "plan_activity_actor_id_users_id_fk" FOREIGN KEY ("actor_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "plan_activity_root_idx" ON "plan_activity" USING btree ("root_task_id","id");--> statement-breakpoint
CREATE INDEX "task_events_team_idx" ON "task_events" USING btree ("team_id","id") WHERE "task_events"."team_id" is not null;--> statement-breakpoint
-- An event of a team plan carries the plan's team (issue 41), so every member's /ws/global carries it;
-- no publisher needs to know.
CREATE FUNCTION "atomize_event_team"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW."team_id" IS NULL AND coalesce(NEW."root_task_id", NEW."task_id") IS NOT NULL THEN
    NEW."team_id" := (SELECT t."team_id" FROM "tasks" t WHERE t."id" = coalesce(NEW."root_task_id", NEW."task_id"));
  END IF;
  RETURN NEW;
END
$$;--> statement-breakpoint
CREATE TRIGGER "task_events_team_on_insert" BEFORE INSERT ON "task_events"
  FOR EACH ROW EXECUTE FUNCTION "atomize_event_team"();
