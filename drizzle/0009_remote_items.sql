CREATE TABLE "remote_items" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"task_id" uuid,
	"root_task_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"removed_at" timestamp with time zone,
	"target" text NOT NULL,
	"remote_id" text NOT NULL,
	"remote_key" text NOT NULL,
	"url" text NOT NULL,
	"remote_status" text,
	"synced_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "webhook_endpoints" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"secret_ciphertext" text NOT NULL,
	"last_delivery_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "remote_items" ADD CONSTRAINT "remote_items_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "remote_items" ADD CONSTRAINT "remote_items_task_id_tasks_id_fk" FOREIGN KEY ("task_id") REFERENCES "public"."tasks"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "remote_items" ADD CONSTRAINT "remote_items_root_task_id_tasks_id_fk" FOREIGN KEY ("root_task_id") REFERENCES "public"."tasks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhook_endpoints" ADD CONSTRAINT "webhook_endpoints_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "remote_items_task_target_idx" ON "remote_items" USING btree ("task_id","kind","target");--> statement-breakpoint
CREATE INDEX "remote_items_lookup_idx" ON "remote_items" USING btree ("kind","target","remote_id");--> statement-breakpoint
CREATE INDEX "remote_items_root_idx" ON "remote_items" USING btree ("root_task_id");--> statement-breakpoint
CREATE UNIQUE INDEX "webhook_endpoints_user_kind_idx" ON "webhook_endpoints" USING btree ("user_id","kind");