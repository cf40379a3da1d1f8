CREATE TABLE "repository_map_cache" (
	"key" text PRIMARY KEY NOT NULL,
	"map" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
