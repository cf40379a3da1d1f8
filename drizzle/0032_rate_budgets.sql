CREATE TABLE "rate_budgets" (
	"key" text PRIMARY KEY NOT NULL,
	"times" timestamp with time zone[] NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
