CREATE TABLE "remote_item_changes" (
	"remote_item_id" uuid PRIMARY KEY NOT NULL,
	"changed_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "webhook_deliveries" (
	"webhook_id" uuid NOT NULL,
	"delivery_id" text NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "webhook_deliveries_webhook_id_delivery_id_pk" PRIMARY KEY("webhook_id","delivery_id")
);
--> statement-breakpoint
ALTER TABLE "remote_item_changes" ADD CONSTRAINT "remote_item_changes_remote_item_id_remote_items_id_fk" FOREIGN KEY ("remote_item_id") REFERENCES "public"."remote_items"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_webhook_id_webhook_endpoints_id_fk" FOREIGN KEY ("webhook_id") REFERENCES "public"."webhook_endpoints"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "webhook_deliveries_received_idx" ON "webhook_deliveries" USING btree ("received_at");