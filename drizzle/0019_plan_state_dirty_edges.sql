CREATE TABLE "plan_state_dirty_edges" (
	"root_task_id" uuid NOT NULL,
	"task_id" uuid NOT NULL,
	CONSTRAINT "plan_state_dirty_edges_root_task_id_task_id_pk" PRIMARY KEY("root_task_id","task_id")
);
--> statement-breakpoint
-- Marks the tasks whose dependencies change (the dependent's id: every edge row names it), in plans that
-- have a kept state, as migration 0016 marks changed tasks.
CREATE FUNCTION "atomize_plan_state_dirty_edges"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO "plan_state_dirty_edges" ("root_task_id", "task_id")
    SELECT DISTINCT n."root_task_id", n."task_id" FROM "atomize_new_edges" n
    WHERE EXISTS (SELECT 1 FROM "plan_state_nodes" p WHERE p."root_task_id" = n."root_task_id")
    ON CONFLICT DO NOTHING;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO "plan_state_dirty_edges" ("root_task_id", "task_id")
    SELECT DISTINCT o."root_task_id", o."task_id" FROM "atomize_old_edges" o
    WHERE EXISTS (SELECT 1 FROM "plan_state_nodes" p WHERE p."root_task_id" = o."root_task_id")
    ON CONFLICT DO NOTHING;
  ELSE
    INSERT INTO "plan_state_dirty_edges" ("root_task_id", "task_id")
    SELECT DISTINCT e."root_task_id", e."task_id"
    FROM (SELECT "root_task_id", "task_id" FROM "atomize_new_edges"
          UNION SELECT "root_task_id", "task_id" FROM "atomize_old_edges") e
    WHERE EXISTS (SELECT 1 FROM "plan_state_nodes" p WHERE p."root_task_id" = e."root_task_id")
    ON CONFLICT DO NOTHING;
  END IF;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "task_dependencies_plan_state_dirty_insert" AFTER INSERT ON "task_dependencies"
  REFERENCING NEW TABLE AS "atomize_new_edges" FOR EACH STATEMENT EXECUTE FUNCTION "atomize_plan_state_dirty_edges"();--> statement-breakpoint
CREATE TRIGGER "task_dependencies_plan_state_dirty_update" AFTER UPDATE ON "task_dependencies"
  REFERENCING OLD TABLE AS "atomize_old_edges" NEW TABLE AS "atomize_new_edges"
  FOR EACH STATEMENT EXECUTE FUNCTION "atomize_plan_state_dirty_edges"();--> statement-breakpoint
CREATE TRIGGER "task_dependencies_plan_state_dirty_delete" AFTER DELETE ON "task_dependencies"
  REFERENCING OLD TABLE AS "atomize_old_edges" FOR EACH STATEMENT EXECUTE FUNCTION "atomize_plan_state_dirty_edges"();--> statement-breakpoint
-- Plans kept before this compare every dependency once, at their next revision.
INSERT INTO "plan_state_dirty_edges" ("root_task_id", "task_id")
SELECT "root_task_id", "task_id" FROM "plan_state_edges"
UNION
SELECT d."root_task_id", d."task_id" FROM "task_dependencies" d
WHERE EXISTS (SELECT 1 FROM "plan_state_nodes" p WHERE p."root_task_id" = d."root_task_id")
ON CONFLICT DO NOTHING;
