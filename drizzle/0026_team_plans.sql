ALTER TABLE "tasks" ADD COLUMN "team_id" uuid;--> statement-breakpoint
ALTER TABLE "tasks" ADD CONSTRAINT "tasks_team_id_teams_id_fk" FOREIGN KEY ("team_id") REFERENCES "public"."teams"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "tasks_team_top_level_idx" ON "tasks" USING btree ("team_id","created_at" DESC NULLS LAST) WHERE "tasks"."parent_id" is null;--> statement-breakpoint
-- A node inserted into a plan belongs to its plan's team (issue 41): whoever inserts it (a split, a
-- person's subtask, a re-plan, a restore) need not know. Moving a plan in or out updates all its nodes.
CREATE FUNCTION "atomize_task_team"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW."root_task_id" IS NOT NULL THEN
    NEW."team_id" := (SELECT t."team_id" FROM "tasks" t WHERE t."id" = NEW."root_task_id");
  END IF;
  RETURN NEW;
END
$$;--> statement-breakpoint
CREATE TRIGGER "tasks_team_on_insert" BEFORE INSERT ON "tasks"
  FOR EACH ROW EXECUTE FUNCTION "atomize_task_team"();
