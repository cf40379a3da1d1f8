CREATE TABLE "plan_state_edges" (
	"root_task_id" uuid NOT NULL,
	"task_id" uuid NOT NULL,
	"depends_on_id" uuid NOT NULL,
	"source" text NOT NULL,
	CONSTRAINT "plan_state_edges_root_task_id_task_id_depends_on_id_source_pk" PRIMARY KEY("root_task_id","task_id","depends_on_id","source")
);
--> statement-breakpoint
CREATE TABLE "plan_state_nodes" (
	"root_task_id" uuid NOT NULL,
	"task_id" uuid NOT NULL,
	"node" jsonb NOT NULL,
	CONSTRAINT "plan_state_nodes_root_task_id_task_id_pk" PRIMARY KEY("root_task_id","task_id")
);
--> statement-breakpoint
ALTER TABLE "task_revisions" ALTER COLUMN "snapshot" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "task_revisions" ADD COLUMN "changes" jsonb;--> statement-breakpoint
ALTER TABLE "plan_state_edges" ADD CONSTRAINT "plan_state_edges_root_task_id_tasks_id_fk" FOREIGN KEY ("root_task_id") REFERENCES "public"."tasks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "plan_state_nodes" ADD CONSTRAINT "plan_state_nodes_root_task_id_tasks_id_fk" FOREIGN KEY ("root_task_id") REFERENCES "public"."tasks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- Revisions saved before this stay whole snapshots (a restore reads them as they are); the plan's state as
-- of its newest revision starts from that revision's snapshot, so the next revision stores only what changed.
INSERT INTO "plan_state_nodes" ("root_task_id", "task_id", "node")
SELECT r."root_task_id", (n->>'id')::uuid, n
FROM (SELECT DISTINCT ON ("root_task_id") "root_task_id", "snapshot" FROM "task_revisions" ORDER BY "root_task_id", "seq" DESC) r,
  jsonb_array_elements(r."snapshot"->'nodes') n
ON CONFLICT DO NOTHING;--> statement-breakpoint
INSERT INTO "plan_state_edges" ("root_task_id", "task_id", "depends_on_id", "source")
SELECT r."root_task_id", (e->>'task_id')::uuid, (e->>'depends_on_id')::uuid, e->>'source'
FROM (SELECT DISTINCT ON ("root_task_id") "root_task_id", "snapshot" FROM "task_revisions" ORDER BY "root_task_id", "seq" DESC) r,
  jsonb_array_elements(r."snapshot"->'edges') e
ON CONFLICT DO NOTHING;
