ALTER TABLE "tasks" ADD COLUMN "started_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "tasks" ADD COLUMN "actual_hours" real;--> statement-breakpoint
ALTER TABLE "tasks" ADD COLUMN "actual_source" text;--> statement-breakpoint
-- The forecast's calibration reads the owner's newest finished leaves with actuals (plan/calibration.ts):
-- only those rows are indexed, so the read stays small however many tasks the owner has.
CREATE INDEX "tasks_user_actuals_idx" ON "tasks" ("user_id", "completed_at" DESC) WHERE "actual_hours" IS NOT NULL;
