CREATE TABLE "app_meta" (
	"key" text PRIMARY KEY NOT NULL,
	"value" text NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "blog_subscriptions" ALTER COLUMN "status" SET DEFAULT 'pending';--> statement-breakpoint
ALTER TABLE "blog_subscriptions" ADD COLUMN "confirmed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "blog_subscriptions" ADD COLUMN "confirmation_sent_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "event_models" ADD COLUMN "user_edited_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "sessions" ADD COLUMN "previous_secret_hash" text;--> statement-breakpoint
ALTER TABLE "sessions" ADD COLUMN "previous_secret_expires_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "email_verified_at" timestamp with time zone;--> statement-breakpoint
-- Google accounts were only ever created or linked through an ID token with email_verified.
UPDATE "users" SET "email_verified_at" = "created_at" WHERE "provider" = 'google';--> statement-breakpoint
-- Subscriptions made before double opt-in keep receiving mail as before.
UPDATE "blog_subscriptions" SET "confirmed_at" = "created_at" WHERE "status" = 'active';
