-- A revision keeps the work recorded on a task (started_at, actual_hours, actual_source; issue 40): a change
-- to them marks the task for the next revision's state, as the other snapshot fields do (migration 0016).
CREATE OR REPLACE FUNCTION "atomize_plan_state_dirty"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO "plan_state_dirty" ("root_task_id", "task_id")
    SELECT DISTINCT coalesce(n."root_task_id", n."id"), n."id" FROM "atomize_new_rows" n
    WHERE EXISTS (SELECT 1 FROM "plan_state_nodes" p WHERE p."root_task_id" = coalesce(n."root_task_id", n."id"))
    ON CONFLICT DO NOTHING;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO "plan_state_dirty" ("root_task_id", "task_id")
    SELECT DISTINCT o."root_task_id", o."id" FROM "atomize_old_rows" o
    WHERE o."root_task_id" IS NOT NULL
      AND EXISTS (SELECT 1 FROM "plan_state_nodes" p WHERE p."root_task_id" = o."root_task_id")
    ON CONFLICT DO NOTHING;
  ELSE
    INSERT INTO "plan_state_dirty" ("root_task_id", "task_id")
    SELECT DISTINCT coalesce(n."root_task_id", n."id"), n."id"
    FROM "atomize_new_rows" n JOIN "atomize_old_rows" o ON o."id" = n."id"
    WHERE (o."parent_id", o."position", o."depth", o."description", o."implementation_details",
        o."acceptance_criteria", o."requirement_ids", o."story_points", o."complexity_score",
        o."estimated_hours", o."estimate_low_hours", o."estimate_high_hours", o."estimate_source",
        o."is_atomic", o."status", o."completed_at", o."edited_at", o."exported_at",
        o."started_at", o."actual_hours", o."actual_source")
      IS DISTINCT FROM (n."parent_id", n."position", n."depth", n."description", n."implementation_details",
        n."acceptance_criteria", n."requirement_ids", n."story_points", n."complexity_score",
        n."estimated_hours", n."estimate_low_hours", n."estimate_high_hours", n."estimate_source",
        n."is_atomic", n."status", n."completed_at", n."edited_at", n."exported_at",
        n."started_at", n."actual_hours", n."actual_source")
      AND EXISTS (SELECT 1 FROM "plan_state_nodes" p WHERE p."root_task_id" = coalesce(n."root_task_id", n."id"))
    ON CONFLICT DO NOTHING;
  END IF;
  RETURN NULL;
END
$$;--> statement-breakpoint
-- Plans kept before this take their tasks' recorded work into the state at their next revision.
INSERT INTO "plan_state_dirty" ("root_task_id", "task_id")
SELECT coalesce(t."root_task_id", t."id"), t."id" FROM "tasks" t
WHERE (t."actual_hours" IS NOT NULL OR t."started_at" IS NOT NULL)
  AND EXISTS (SELECT 1 FROM "plan_state_nodes" p WHERE p."root_task_id" = coalesce(t."root_task_id", t."id"))
ON CONFLICT DO NOTHING;
