-- A parent's change of schedule (spec 2.1 /changeschedule, 2.11, 9 application type 4): the request
-- under its random hex key, the new schedule's seats it took (seat_takes.change_request_id), its cost
-- and what it put on the ledger.
ALTER TABLE "seat_takes" ADD COLUMN "change_request_id" integer;
--> statement-breakpoint
CREATE TABLE "change_requests" (
	"id" serial PRIMARY KEY NOT NULL,
	"key" text NOT NULL,
	"provider_id" integer NOT NULL,
	"account_id" integer NOT NULL,
	"program_period_id" integer NOT NULL,
	"status" text DEFAULT 'open' NOT NULL,
	"data" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"effective_date" date,
	"cost" jsonb,
	"change_fee_cents" integer DEFAULT 0 NOT NULL,
	"charged_cents" integer DEFAULT 0 NOT NULL,
	"credited_cents" integer DEFAULT 0 NOT NULL,
	"amount_due_cents" integer DEFAULT 0 NOT NULL,
	"applies_itself" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	"submitted_at" timestamp with time zone,
	"decided_at" timestamp with time zone,
	"applied_at" timestamp with time zone,
	CONSTRAINT "change_requests_key_unique" UNIQUE("key")
);
--> statement-breakpoint
ALTER TABLE "change_requests" ADD CONSTRAINT "change_requests_provider_id_providers_id_fk" FOREIGN KEY ("provider_id") REFERENCES "public"."providers"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "change_requests" ADD CONSTRAINT "change_requests_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "change_requests" ADD CONSTRAINT "change_requests_program_period_id_program_periods_id_fk" FOREIGN KEY ("program_period_id") REFERENCES "public"."program_periods"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
CREATE INDEX "change_requests_account" ON "change_requests" USING btree ("provider_id","account_id","program_period_id");
--> statement-breakpoint
CREATE INDEX "change_requests_due" ON "change_requests" USING btree ("status","effective_date");
