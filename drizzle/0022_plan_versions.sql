CREATE TABLE "plan_changes" (
	"root_task_id" uuid NOT NULL,
	"tx" bigint NOT NULL,
	CONSTRAINT "plan_changes_root_task_id_tx_pk" PRIMARY KEY("root_task_id","tx")
);
--> statement-breakpoint
CREATE TABLE "plan_versions" (
	"root_task_id" uuid PRIMARY KEY NOT NULL,
	"base" bigint DEFAULT 0 NOT NULL
);
--> statement-breakpoint
-- A plan's version (services/tasks/tree-cache.ts): each transaction that writes a row of the plan's tree
-- leaves one row in plan_changes, keyed by its transaction id, so writers never wait on one another (a
-- counter row would make two writers of one plan deadlock: each holds a task row and waits for the
-- counter). Statement-level, reading the transition tables, as migrations 0016 and 0019. A plan that is
-- deleted whole takes its rows with it; the rows its deletion cascades to leave none.
CREATE FUNCTION "atomize_plan_changed_tasks"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    DELETE FROM "plan_changes" c USING "atomize_changed_rows" o
    WHERE o."root_task_id" IS NULL AND c."root_task_id" = o."id";
    DELETE FROM "plan_versions" v USING "atomize_changed_rows" o
    WHERE o."root_task_id" IS NULL AND v."root_task_id" = o."id";
  END IF;
  INSERT INTO "plan_changes" ("root_task_id", "tx")
  SELECT DISTINCT coalesce(r."root_task_id", r."id"), txid_current() FROM "atomize_changed_rows" r
  WHERE EXISTS (SELECT 1 FROM "tasks" t WHERE t."id" = coalesce(r."root_task_id", r."id"))
  ON CONFLICT DO NOTHING;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE FUNCTION "atomize_plan_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "plan_changes" ("root_task_id", "tx")
  SELECT DISTINCT r."root_task_id", txid_current() FROM "atomize_changed_rows" r
  WHERE r."root_task_id" IS NOT NULL AND EXISTS (SELECT 1 FROM "tasks" t WHERE t."id" = r."root_task_id")
  ON CONFLICT DO NOTHING;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "tasks_plan_changed_insert" AFTER INSERT ON "tasks"
  REFERENCING NEW TABLE AS "atomize_changed_rows" FOR EACH STATEMENT EXECUTE FUNCTION "atomize_plan_changed_tasks"();--> statement-breakpoint
CREATE TRIGGER "tasks_plan_changed_update" AFTER UPDATE ON "tasks"
  REFERENCING NEW TABLE AS "atomize_changed_rows" FOR EACH STATEMENT EXECUTE FUNCTION "atomize_plan_changed_tasks"();--> statement-breakpoint
CREATE TRIGGER "tasks_plan_changed_delete" AFTER DELETE ON "tasks"
  REFERENCING OLD TABLE AS "atomize_changed_rows" FOR EACH STATEMENT EXECUTE FUNCTION "atomize_plan_changed_tasks"();--> statement-breakpoint
CREATE TRIGGER "task_dependencies_plan_changed_insert" AFTER INSERT ON "task_dependencies"
  REFERENCING NEW TABLE AS "atomize_changed_rows" FOR EACH STATEMENT EXECUTE FUNCTION "atomize_plan_changed"();--> statement-breakpoint
CREATE TRIGGER "task_dependencies_plan_changed_update" AFTER UPDATE ON "task_dependencies"
  REFERENCING NEW TABLE AS "atomize_changed_rows" FOR EACH STATEMENT EXECUTE FUNCTION "atomize_plan_changed"();--> statement-breakpoint
CREATE TRIGGER "task_dependencies_plan_changed_delete" AFTER DELETE ON "task_dependencies"
  REFERENCING OLD TABLE AS "atomize_changed_rows" FOR EACH STATEMENT EXECUTE FUNCTION "atomize_plan_changed"();--> statement-breakpoint
CREATE TRIGGER "remote_items_plan_changed_insert" AFTER INSERT ON "remote_items"
  REFERENCING NEW TABLE AS "atomize_changed_rows" FOR EACH STATEMENT EXECUTE FUNCTION "atomize_plan_changed"();--> statement-breakpoint
CREATE TRIGGER "remote_items_plan_changed_update" AFTER UPDATE ON "remote_items"
  REFERENCING NEW TABLE AS "atomize_changed_rows" FOR EACH STATEMENT EXECUTE FUNCTION "atomize_plan_changed"();--> statement-breakpoint
CREATE TRIGGER "remote_items_plan_changed_delete" AFTER DELETE ON "remote_items"
  REFERENCING OLD TABLE AS "atomize_changed_rows" FOR EACH STATEMENT EXECUTE FUNCTION "atomize_plan_changed"();--> statement-breakpoint
CREATE TRIGGER "epics_plan_changed_insert" AFTER INSERT ON "epics"
  REFERENCING NEW TABLE AS "atomize_changed_rows" FOR EACH STATEMENT EXECUTE FUNCTION "atomize_plan_changed"();--> statement-breakpoint
CREATE TRIGGER "epics_plan_changed_update" AFTER UPDATE ON "epics"
  REFERENCING NEW TABLE AS "atomize_changed_rows" FOR EACH STATEMENT EXECUTE FUNCTION "atomize_plan_changed"();--> statement-breakpoint
CREATE TRIGGER "epics_plan_changed_delete" AFTER DELETE ON "epics"
  REFERENCING OLD TABLE AS "atomize_changed_rows" FOR EACH STATEMENT EXECUTE FUNCTION "atomize_plan_changed"();--> statement-breakpoint
CREATE TRIGGER "user_stories_plan_changed_insert" AFTER INSERT ON "user_stories"
  REFERENCING NEW TABLE AS "atomize_changed_rows" FOR EACH STATEMENT EXECUTE FUNCTION "atomize_plan_changed"();--> statement-breakpoint
CREATE TRIGGER "user_stories_plan_changed_update" AFTER UPDATE ON "user_stories"
  REFERENCING NEW TABLE AS "atomize_changed_rows" FOR EACH STATEMENT EXECUTE FUNCTION "atomize_plan_changed"();--> statement-breakpoint
CREATE TRIGGER "user_stories_plan_changed_delete" AFTER DELETE ON "user_stories"
  REFERENCING OLD TABLE AS "atomize_changed_rows" FOR EACH STATEMENT EXECUTE FUNCTION "atomize_plan_changed"();--> statement-breakpoint
CREATE TRIGGER "event_models_plan_changed_insert" AFTER INSERT ON "event_models"
  REFERENCING NEW TABLE AS "atomize_changed_rows" FOR EACH STATEMENT EXECUTE FUNCTION "atomize_plan_changed"();--> statement-breakpoint
CREATE TRIGGER "event_models_plan_changed_update" AFTER UPDATE ON "event_models"
  REFERENCING NEW TABLE AS "atomize_changed_rows" FOR EACH STATEMENT EXECUTE FUNCTION "atomize_plan_changed"();--> statement-breakpoint
CREATE TRIGGER "event_models_plan_changed_delete" AFTER DELETE ON "event_models"
  REFERENCING OLD TABLE AS "atomize_changed_rows" FOR EACH STATEMENT EXECUTE FUNCTION "atomize_plan_changed"();
