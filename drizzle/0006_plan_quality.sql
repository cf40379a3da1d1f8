CREATE TABLE "model_providers" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid,
	"base_url" text NOT NULL,
	"model" text NOT NULL,
	"secret_ciphertext" text,
	"concurrency" integer DEFAULT 4 NOT NULL,
	"updated_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "tasks" ADD COLUMN "acceptance_criteria" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "tasks" ADD COLUMN "requirement_ids" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "tasks" ADD COLUMN "estimated_hours" real;--> statement-breakpoint
ALTER TABLE "tasks" ADD COLUMN "estimate_source" text;--> statement-breakpoint
ALTER TABLE "model_providers" ADD CONSTRAINT "model_providers_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "model_providers" ADD CONSTRAINT "model_providers_updated_by_users_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "model_providers_user_idx" ON "model_providers" USING btree ("user_id") WHERE "model_providers"."user_id" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "model_providers_instance_idx" ON "model_providers" USING btree ((true)) WHERE "model_providers"."user_id" is null;