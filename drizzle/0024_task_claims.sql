ALTER TABLE "tasks" ADD COLUMN "claimed_by" uuid;--> statement-breakpoint
ALTER TABLE "tasks" ADD COLUMN "claimed_token" uuid;--> statement-breakpoint
ALTER TABLE "tasks" ADD COLUMN "claimed_holder" text;--> statement-breakpoint
ALTER TABLE "tasks" ADD COLUMN "claimed_agent" text;--> statement-breakpoint
ALTER TABLE "tasks" ADD COLUMN "claimed_until" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "tasks" ADD CONSTRAINT "tasks_claimed_by_users_id_fk" FOREIGN KEY ("claimed_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;